package dev.stillpoint.itemjson;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;

/**
 * One stack of parsed members for a whole decode: an object's or array's members are pushed, handed
 * (through a view) to the value's constructor, which copies them, and popped. So a decode builds no
 * intermediate map, list or set per value; the domain's constructors make the one copy they keep.
 * A duplicate name shows up as a constructed map or set smaller than the members pushed.
 */
final class MemberStack {
    // Room for a typical item's attributes plus one nested map's; grown by doubling. Every decode
    // allocates these, so larger first arrays cost more in zeroing than growing saves.
    private String[] names = new String[16];
    private AttributeValue[] values = new AttributeValue[16];
    private int[] positions = new int[16];
    private int top;

    int top() {
        return top;
    }

    void push(String name, AttributeValue value, int at) {
        if (top == names.length) {
            names = Arrays.copyOf(names, top * 2);
            values = Arrays.copyOf(values, top * 2);
            positions = Arrays.copyOf(positions, top * 2);
        }
        names[top] = name;
        values[top] = value;
        positions[top] = at;
        top++;
    }

    /** Drops the members from {@code from}; the stack dies with the decode, so stale references need no clearing. */
    void pop(int from) {
        top = from;
    }

    /** The index of the first member from {@code from} whose name repeats an earlier one, or -1. */
    int firstRepeat(int from) {
        Set<String> seen = new java.util.HashSet<>();
        for (int i = from; i < top; i++) {
            if (!seen.add(names[i])) {
                return i;
            }
        }
        return -1;
    }

    String name(int i) {
        return names[i];
    }

    int position(int i) {
        return positions[i];
    }

    /** The members {@code [from, top)} as a map, read once by the constructor that copies them. */
    Map<String, AttributeValue> map(int from) {
        return new MemberMap(from, top);
    }

    /** The values {@code [from, top)} as a list. */
    java.util.List<AttributeValue> list(int from) {
        return new MemberList(from, top);
    }

    /** The names {@code [from, top)} as a set (duplicates are caught by size afterwards). */
    Set<String> set(int from) {
        return new MemberSet(from, top);
    }

    private final class MemberMap extends AbstractMap<String, AttributeValue> {
        private final int from;
        private final int to;

        MemberMap(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public Set<Map.Entry<String, AttributeValue>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, AttributeValue>> iterator() {
                    return new EntryCursor(from, to);
                }

                @Override
                public int size() {
                    return to - from;
                }
            };
        }
    }

    /**
     * Walks pushed members, itself being the entry it returns (valid until the next call): the
     * constructors read each entry's key and value at once and keep neither.
     */
    private final class EntryCursor implements Iterator<Map.Entry<String, AttributeValue>>,
            Map.Entry<String, AttributeValue> {
        private final int to;
        private int at;

        EntryCursor(int from, int to) {
            this.at = from - 1;
            this.to = to;
        }

        @Override
        public boolean hasNext() {
            return at + 1 < to;
        }

        @Override
        public Map.Entry<String, AttributeValue> next() {
            if (at + 1 >= to) {
                throw new NoSuchElementException();
            }
            at++;
            return this;
        }

        @Override
        public String getKey() {
            return names[at];
        }

        @Override
        public AttributeValue getValue() {
            return values[at];
        }

        @Override
        public AttributeValue setValue(AttributeValue value) {
            throw new UnsupportedOperationException();
        }
    }

    private final class MemberList extends AbstractList<AttributeValue> implements RandomAccess {
        private final int from;
        private final int to;

        MemberList(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public AttributeValue get(int index) {
            Objects.checkIndex(index, to - from);
            return values[from + index];
        }

        @Override
        public int size() {
            return to - from;
        }

        @Override
        public Object[] toArray() {
            return Arrays.copyOfRange(values, from, to, Object[].class);
        }
    }

    private final class MemberSet extends AbstractSet<String> {
        private final int from;
        private final int to;

        MemberSet(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public Iterator<String> iterator() {
            return new Iterator<>() {
                private int at = from;

                @Override
                public boolean hasNext() {
                    return at < to;
                }

                @Override
                public String next() {
                    if (at >= to) {
                        throw new NoSuchElementException();
                    }
                    return names[at++];
                }
            };
        }

        @Override
        public int size() {
            return to - from;
        }
    }
}

package dev.stillpoint.domain.item;

/**
 * Distinct names in the order first added, found by position: the keys of an {@link AttributeMap}
 * and the members of {@link SetMembers}. Filled while its owner is built, never changed afterwards.
 *
 * <p>Up to {@value #LINEAR_MAX} names are searched linearly (comparing cached hashes before
 * {@code equals}); a larger capacity gets an open-addressing table built as names are added, so a
 * lookup takes constant time and {@code equals} of two large items linear time. Names made to share
 * one {@code String.hashCode} still cost a linear search each (a {@code HashMap} would tree them).
 */
final class NameIndex {
    /**
     * The largest capacity searched without a table: a typical item (10 attributes in the benchmarks)
     * then costs no table, and 16 hash comparisons are as quick as a probe.
     */
    static final int LINEAR_MAX = 16;

    private String[] names;
    private int[] hashes;
    // Positions plus one (zero marks a free slot), at most half full; null while linear.
    private int[] slots;
    private int size;

    /** An empty index with room for {@code capacity} names before it has to grow. */
    NameIndex(int capacity) {
        allocate(capacity);
    }

    /** How many distinct names were added. */
    int size() {
        return size;
    }

    /** The name at {@code position} ({@code 0 <= position < size()}). */
    String name(int position) {
        return names[position];
    }

    /** How many names fit before the index grows (so an owner can size its parallel arrays). */
    int capacity() {
        return names.length;
    }

    /**
     * The position of {@code name}: the one it already holds (a repeated name keeps its first
     * position), else a new last one.
     */
    int add(String name) {
        // Grown first, so the free slot a failed search ends at is still the one to fill.
        if (size == names.length) {
            grow();
        }
        int hash = name.hashCode();
        int found = find(name, hash);
        if (found >= 0) {
            return found;
        }
        if (slots != null) {
            slots[~found] = size + 1;
        }
        names[size] = name;
        hashes[size] = hash;
        return size++;
    }

    /** The position of {@code name}; negative when absent (also for null or a non-string). */
    int indexOf(Object name) {
        if (!(name instanceof String text)) {
            return -1;
        }
        return find(text, text.hashCode());
    }

    // The position of name; when absent, the complement of the free slot its probe ended at (-1 without a table).
    private int find(String name, int hash) {
        if (slots == null) {
            for (int i = 0; i < size; i++) {
                if (hashes[i] == hash && names[i].equals(name)) {
                    return i;
                }
            }
            return -1;
        }
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (; slots[slot] != 0; slot = (slot + 1) & mask) {
            int position = slots[slot] - 1;
            if (hashes[position] == hash && names[position].equals(name)) {
                return position;
            }
        }
        return ~slot;
    }

    // Only a source whose size() under-counts its entries gets here; names keep their positions.
    private void grow() {
        String[] oldNames = names;
        int[] oldHashes = hashes;
        allocate(Math.max(2 * size, LINEAR_MAX));
        System.arraycopy(oldNames, 0, names, 0, size);
        System.arraycopy(oldHashes, 0, hashes, 0, size);
        if (slots != null) {
            for (int i = 0; i < size; i++) {
                slots[~find(names[i], hashes[i])] = i + 1;
            }
        }
    }

    private void allocate(int capacity) {
        names = new String[capacity];
        hashes = new int[capacity];
        slots = capacity > LINEAR_MAX ? new int[Integer.highestOneBit(capacity) * 4] : null;
    }
}

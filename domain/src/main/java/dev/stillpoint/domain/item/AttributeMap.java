package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The attributes of an {@link Item} or an M: names and values in parallel arrays, immutable, in the
 * order first given. Built in one pass over the source, so a decoded item costs no
 * {@code LinkedHashMap} nodes. A repeated name keeps its first position and takes the last value
 * (as {@code LinkedHashMap.put} would), so the map can come out smaller than its source: the
 * item-json parser notices a duplicate that way. Every mutator throws, as the
 * {@code Collections.unmodifiableMap} this replaces did.
 */
final class AttributeMap extends AbstractMap<String, AttributeValue> {
    private final NameIndex names;
    private final AttributeValue[] values;

    private AttributeMap(NameIndex names, AttributeValue[] values) {
        this.names = names;
        this.values = values;
    }

    /**
     * An immutable copy of {@code source}, refusing a missing map, name or value.
     *
     * @param source the values by name, read once (an entry is not kept: a parser may reuse it)
     * @param what the owner for messages ("item", "M")
     */
    static AttributeMap copyOf(Map<String, AttributeValue> source, String what) {
        if (source == null) {
            // The message is built only on failure: this runs once per decoded item and map.
            throw StorageException.validation(what + " attributes must not be null");
        }
        NameIndex names = new NameIndex(source.size());
        AttributeValue[] values = new AttributeValue[names.capacity()];
        for (Map.Entry<String, AttributeValue> e : source.entrySet()) {
            String name = e.getKey();
            AttributeValue value = e.getValue();
            if (name == null) {
                throw StorageException.validation(what + " attribute name must not be null");
            }
            if (value == null) {
                throw StorageException.validation(what + " value of '" + name + "' must not be null");
            }
            int position = names.add(name);
            if (position == values.length) {
                values = Arrays.copyOf(values, names.capacity());
            }
            values[position] = value;
        }
        return new AttributeMap(names, values);
    }

    @Override
    public int size() {
        return names.size();
    }

    @Override
    public boolean containsKey(Object name) {
        return names.indexOf(name) >= 0;
    }

    @Override
    public AttributeValue get(Object name) {
        int position = names.indexOf(name);
        return position < 0 ? null : values[position];
    }

    @Override
    public Set<String> keySet() {
        return new SetMembers(names);
    }

    @Override
    public Collection<AttributeValue> values() {
        return Collections.unmodifiableCollection(super.values());
    }

    @Override
    public Set<Map.Entry<String, AttributeValue>> entrySet() {
        return new ReadOnlySet<>() {
            @Override
            public Iterator<Map.Entry<String, AttributeValue>> iterator() {
                return new PositionCursor<>(names.size()) {
                    @Override
                    Map.Entry<String, AttributeValue> at(int position) {
                        return new SimpleImmutableEntry<>(names.name(position), values[position]);
                    }
                };
            }

            @Override
            public int size() {
                return names.size();
            }
        };
    }

    @Override
    public int hashCode() {
        // Map's contract, the sum of the entries' hashes, without making the entries.
        int hash = 0;
        for (int i = 0; i < names.size(); i++) {
            hash += names.name(i).hashCode() ^ values[i].hashCode();
        }
        return hash;
    }

    @Override
    public AttributeValue put(String name, AttributeValue value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue remove(Object name) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean remove(Object name, Object value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void putAll(Map<? extends String, ? extends AttributeValue> source) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue putIfAbsent(String name, AttributeValue value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean replace(String name, AttributeValue oldValue, AttributeValue newValue) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue replace(String name, AttributeValue value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void replaceAll(BiFunction<? super String, ? super AttributeValue, ? extends AttributeValue> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue computeIfAbsent(String name, Function<? super String, ? extends AttributeValue> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue computeIfPresent(String name,
            BiFunction<? super String, ? super AttributeValue, ? extends AttributeValue> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue compute(String name,
            BiFunction<? super String, ? super AttributeValue, ? extends AttributeValue> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeValue merge(String name, AttributeValue value,
            BiFunction<? super AttributeValue, ? super AttributeValue, ? extends AttributeValue> function) {
        throw new UnsupportedOperationException();
    }
}

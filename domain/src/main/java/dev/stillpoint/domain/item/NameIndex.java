package dev.stillpoint.domain.item;

/**
 * Distinct names in the order first added, found by position: the keys of an {@link AttributeMap}
 * and the members of {@link SetMembers}. Filled while its owner is built, never changed afterwards.
 *
 * <p>Up to {@value #LINEAR_MAX} names are searched linearly (comparing cached hashes before
 * {@code equals}); a larger capacity gets an open-addressing table built as names are added, so
 * lookups, and with them {@code equals} of two large items, stay linear in the item's size.
 */
final class NameIndex {
    /** The largest capacity searched without a table. */
    static final int LINEAR_MAX = 8;

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
        int hash = name.hashCode();
        int found = find(name, hash);
        if (found >= 0) {
            return found;
        }
        if (size == names.length) {
            grow();
        }
        names[size] = name;
        hashes[size] = hash;
        if (slots != null) {
            slots[freeSlot(hash)] = size + 1;
        }
        return size++;
    }

    /** The position of {@code name}, or -1 when absent (also for null or a non-string). */
    int indexOf(Object name) {
        if (!(name instanceof String text)) {
            return -1;
        }
        return find(text, text.hashCode());
    }

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
        for (int slot = hash & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int position = slots[slot] - 1;
            if (hashes[position] == hash && names[position].equals(name)) {
                return position;
            }
        }
        return -1;
    }

    private int freeSlot(int hash) {
        int mask = slots.length - 1;
        int slot = hash & mask;
        while (slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        return slot;
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
                slots[freeSlot(hashes[i])] = i + 1;
            }
        }
    }

    private void allocate(int capacity) {
        names = new String[capacity];
        hashes = new int[capacity];
        slots = capacity > LINEAR_MAX ? new int[Integer.highestOneBit(capacity) * 4] : null;
    }
}

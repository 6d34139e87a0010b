package dev.stillpoint.backup;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The names read so far in one JSON object, to refuse a repeated one [E1]. Reused object after object:
 * an item's few names are compared in a small array (no allocation per item, which Jackson's own
 * duplicate detection makes), a large object's in a set.
 */
final class ObjectNames {
    private static final int LINEAR = 16;
    private final String[] seen = new String[LINEAR];
    private int count;
    private Set<String> many;

    /** Forgets every name, for the next object. */
    ObjectNames clear() {
        count = 0;
        many = null;
        return this;
    }

    /** Adds {@code name}: false when the object already had it. */
    boolean add(String name) {
        if (many != null) {
            return many.add(name);
        }
        for (int i = 0; i < count; i++) {
            if (seen[i].equals(name)) {
                return false;
            }
        }
        if (count == LINEAR) {
            many = new HashSet<>(Arrays.asList(seen));
            return many.add(name);
        }
        seen[count++] = name;
        return true;
    }
}

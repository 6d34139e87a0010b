package dev.stillpoint.itemjson;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The attribute names and map keys decoded lately, so a name every item repeats is one
 * {@code String}: decoding it again allocates nothing, and the domain's name index finds its hash
 * already computed. A fixed table of slots shared by all threads, each slot the last name that
 * hashed there; a collision only replaces the entry. Entries are immutable and published whole, so
 * a thread sees either some earlier entry or none, never a torn one, and a miss only costs a copy.
 */
final class RecentNames {
    /** Longest name (in bytes, ASCII) kept; longer names are rare and cut from the text each time. */
    static final int MAX_BYTES = 32;
    private static final int SLOTS = 1024;
    private static final Entry[] TABLE = new Entry[SLOTS];

    private RecentNames() {
    }

    /**
     * The name spelled by the ASCII bytes {@code text[start, end)}, whose {@code String.hashCode} is
     * {@code hash}.
     */
    static String of(byte[] text, int start, int end, int hash) {
        int slot = (hash ^ hash >>> 16) & (SLOTS - 1);
        Entry entry = TABLE[slot];
        if (entry != null && spells(entry.ascii, text, start, end)) {
            return entry.name;
        }
        byte[] ascii = Arrays.copyOfRange(text, start, end);
        String name = new String(ascii, StandardCharsets.ISO_8859_1);
        TABLE[slot] = new Entry(ascii, name);
        return name;
    }

    // A loop, not Arrays.equals: for names this short its vectorised compare costs more to set up.
    private static boolean spells(byte[] name, byte[] text, int start, int end) {
        if (name.length != end - start) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (name[i] != text[start + i]) {
                return false;
            }
        }
        return true;
    }

    private record Entry(byte[] ascii, String name) {
    }
}

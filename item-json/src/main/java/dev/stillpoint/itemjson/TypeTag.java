package dev.stillpoint.itemjson;

/** The type tags of DynamoDB JSON, as DynamoDB spells them. */
enum TypeTag {
    S, N, B, BOOL, NULL, L, M, SS, NS, BS;

    /**
     * The tag spelled by the UTF-8 bytes {@code text[start, end)}, or null for any other text (case
     * matters). Read in place, without making a string of the tag: every typed value has one.
     */
    static TypeTag of(byte[] text, int start, int end) {
        switch (end - start) {
            case 1 -> {
                return switch (text[start]) {
                    case 'S' -> S;
                    case 'N' -> N;
                    case 'B' -> B;
                    case 'L' -> L;
                    case 'M' -> M;
                    default -> null;
                };
            }
            case 2 -> {
                if (text[start + 1] != 'S') {
                    return null;
                }
                return switch (text[start]) {
                    case 'S' -> SS;
                    case 'N' -> NS;
                    case 'B' -> BS;
                    default -> null;
                };
            }
            case 4 -> {
                if (spells(text, start, "BOOL")) {
                    return BOOL;
                }
                return spells(text, start, "NULL") ? NULL : null;
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean spells(byte[] text, int start, String tag) {
        for (int i = 0; i < tag.length(); i++) {
            if (text[start + i] != tag.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}

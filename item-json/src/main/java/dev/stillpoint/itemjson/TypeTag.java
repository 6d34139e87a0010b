package dev.stillpoint.itemjson;

/** The type tags of DynamoDB JSON, as DynamoDB spells them. */
enum TypeTag {
    S, N, B, BOOL, NULL, L, M, SS, NS, BS;

    /**
     * The tag spelled by {@code text[start, end)}, or null for any other text (case matters). Read in
     * place, without making a string of the tag: every typed value has one.
     */
    static TypeTag of(String text, int start, int end) {
        switch (end - start) {
            case 1 -> {
                return switch (text.charAt(start)) {
                    case 'S' -> S;
                    case 'N' -> N;
                    case 'B' -> B;
                    case 'L' -> L;
                    case 'M' -> M;
                    default -> null;
                };
            }
            case 2 -> {
                if (text.charAt(start + 1) != 'S') {
                    return null;
                }
                return switch (text.charAt(start)) {
                    case 'S' -> SS;
                    case 'N' -> NS;
                    case 'B' -> BS;
                    default -> null;
                };
            }
            case 4 -> {
                if (text.startsWith("BOOL", start)) {
                    return BOOL;
                }
                return text.startsWith("NULL", start) ? NULL : null;
            }
            default -> {
                return null;
            }
        }
    }
}

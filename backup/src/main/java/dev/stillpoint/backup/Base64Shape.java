package dev.stillpoint.backup;

/** Standard padded base64 by its shape only (alphabet, length, padding), without decoding it. */
final class Base64Shape {

    private Base64Shape() {
    }

    static boolean matches(String text) {
        return matches(text.toCharArray(), 0, text.length());
    }

    /** Whether {@code chars[offset, offset + length)} has the shape. */
    static boolean matches(char[] chars, int offset, int length) {
        if (length % 4 != 0) {
            return false;
        }
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            boolean digit = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
            boolean pad = c == '=' && i >= end - 2 && (i == end - 1 || chars[end - 1] == '=');
            if (!digit && !pad) {
                return false;
            }
        }
        return true;
    }
}

package dev.stillpoint.backup;

/**
 * Standard padded base64 by its shape only (alphabet, length, padding, and the unused bits before the
 * padding zero), without decoding it: the text item-json's codec accepts, so an export never passes a
 * B value its restore would refuse [E1, E3].
 */
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
        // Before "==" the last digit carries 4 unused bits, before "=" 2: each byte string has one text.
        if (length > 0 && chars[end - 1] == '=') {
            int unusedBits = chars[end - 2] == '=' ? 0b1111 : 0b11;
            int last = chars[end - 2] == '=' ? chars[end - 3] : chars[end - 2];
            return (value(last) & unusedBits) == 0;
        }
        return true;
    }

    /** A base64 digit's six bits (the digit is known to be one). */
    private static int value(int c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '+' ? 62 : 63;
    }
}

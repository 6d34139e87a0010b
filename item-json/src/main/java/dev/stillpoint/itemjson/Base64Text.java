package dev.stillpoint.itemjson;

/**
 * The one statement of the base64 a B or BS value is written in: standard padded base64 (RFC 4648
 * section 4) with the unused bits before the padding zero, so each byte string has exactly one
 * text. Checked by shape (alphabet, length, padding, unused bits), without decoding. The item codec
 * refuses any other text, and the export's check uses the same rule, so an export never passes a B
 * value its restore would refuse [E1, E3].
 */
public final class Base64Text {

    private Base64Text() {
    }

    /**
     * Whether {@code text} is canonical base64.
     *
     * @param text the text to check
     * @return true when it is the one standard padded base64 text of some byte string
     */
    public static boolean isCanonical(String text) {
        return isCanonical(text.toCharArray(), 0, text.length());
    }

    /**
     * Whether {@code chars[offset, offset + length)} is canonical base64 (a parser's text buffer).
     *
     * @param chars the buffer
     * @param offset where the text starts
     * @param length its length
     * @return true when it is the one standard padded base64 text of some byte string
     */
    public static boolean isCanonical(char[] chars, int offset, int length) {
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

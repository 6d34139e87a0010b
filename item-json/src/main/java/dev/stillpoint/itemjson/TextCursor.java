package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;
import java.nio.charset.StandardCharsets;

/**
 * The lexical level of {@link ItemParser}: a position in the text's UTF-8 bytes, JSON whitespace,
 * strings with every RFC 8259 escape, the literals true and false, and the refusal at a position.
 *
 * <p>Why bytes: a stored item arrives from the driver as UTF-8, and every byte JSON gives meaning to
 * is ASCII, which never occurs inside a multi-byte sequence. So the scan needs no decoded copy of the
 * whole text; only each string's contents are decoded, as it is cut out. Malformed UTF-8 inside a
 * string reads as U+FFFD, exactly as decoding the whole text first would (BENCHMARKS.md, "Decoding
 * from the driver's bytes"). A refusal names the position in characters of the decoded text, so the messages stay
 * those of a parser over characters; the text is decoded for that only when refusing.
 */
abstract class TextCursor {
    final byte[] b;
    final int n;
    int pos;

    TextCursor(byte[] utf8) {
        this.b = utf8;
        this.n = utf8.length;
    }

    final void skipWhitespace() {
        // Small enough to be inlined at every call: canonical text has no whitespace at all.
        if (pos < n && b[pos] > ' ') {
            return;
        }
        skipWhitespaceFrom(pos);
    }

    private void skipWhitespaceFrom(int from) {
        int i = from;
        while (i < n) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            i++;
        }
        pos = i;
    }

    /** Whether the byte at the cursor is the ASCII character {@code c}. */
    final boolean at(char c) {
        return pos < n && b[pos] == c;
    }

    final void expect(char c, String what) {
        expect(c, what, "");
    }

    /** Reads {@code c}, or fails with "expected " + what + detail (joined only on failure). */
    final void expect(char c, String what, String detail) {
        if (pos < n && b[pos] == c) {
            pos++;
            return;
        }
        throw fail(pos, "expected " + what + detail);
    }

    final boolean bool() {
        if (startsWith("true")) {
            pos += 4;
            return true;
        }
        if (startsWith("false")) {
            pos += 5;
            return false;
        }
        throw fail(pos, "expected true or false");
    }

    private boolean startsWith(String ascii) {
        if (n - pos < ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (b[pos + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The end (the closing quote) of the string opening at the cursor if it is ASCII with no escape
     * and no control character, so its text is the bytes {@code [pos + 1, end)}; -1 otherwise.
     */
    final int plainStringEnd() {
        for (int i = pos + 1; i < n; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c == '\\' || c < 0x20) { // a negative byte (not ASCII) is below 0x20 too
                return -1;
            }
        }
        return -1;
    }

    /** A JSON string at the cursor, unescaped. */
    final String string(String what) {
        if (pos >= n || b[pos] != '"') {
            throw fail(pos, "expected a string for the " + what);
        }
        int start = pos + 1;
        for (int i = PlainRun.end(b, start); i < n; i++) {
            byte c = b[i];
            if (c == '"') {
                pos = i + 1;
                return new String(b, start, i - start, StandardCharsets.UTF_8);
            }
            if (c == '\\' || (c >= 0 && c < 0x20)) {
                return escapedString(start, i);
            }
        }
        throw fail(pos, "unterminated string");
    }

    /**
     * A member name at the cursor. A short ASCII name without escapes is taken from {@link RecentNames},
     * so the names every item repeats are one {@code String} each, its hash computed once.
     */
    final String name(String what) {
        if (pos < n && b[pos] == '"') {
            int start = pos + 1;
            int limit = Math.min(n, start + RecentNames.MAX_BYTES + 1);
            int hash = 0;
            for (int i = start; i < limit; i++) {
                byte c = b[i];
                if (c == '"') {
                    pos = i + 1;
                    return RecentNames.of(b, start, i, hash);
                }
                if (c == '\\' || c < 0x20) { // escaped, a control character, or not ASCII
                    break;
                }
                hash = 31 * hash + c;
            }
        }
        return string(what);
    }

    /** The rest of a string from its first escape (or stray control character) at {@code i}. */
    private String escapedString(int start, int i) {
        StringBuilder out = new StringBuilder(i - start + 16);
        int run = start; // the first byte not yet appended: runs between escapes are decoded whole
        while (i < n) {
            byte c = b[i];
            if (c == '"') {
                appendRun(out, run, i);
                pos = i + 1;
                return out.toString();
            }
            if (c >= 0 && c < 0x20) {
                throw fail(i, "unescaped control character U+00" + Refusal.controlName((char) c).substring(4) + " in a string");
            }
            if (c != '\\') {
                i++;
                continue;
            }
            appendRun(out, run, i);
            if (i + 1 >= n) {
                break;
            }
            byte e = b[i + 1];
            switch (e) {
                case '"', '\\', '/' -> out.append((char) e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int k = i + 2; k < i + 6; k++) {
                        int digit = k < n ? hexDigit(b[k]) : -1;
                        if (digit < 0) {
                            throw fail(i, "invalid \\u escape: four hex digits required");
                        }
                        code = code << 4 | digit;
                    }
                    out.append((char) code);
                    i += 4;
                }
                default -> throw fail(i, "invalid escape '\\" + escapedChar(i + 1) + "'");
            }
            i += 2;
            run = i;
        }
        throw fail(start - 1, "unterminated string");
    }

    private void appendRun(StringBuilder out, int from, int to) {
        if (to > from) {
            out.append(new String(b, from, to - from, StandardCharsets.UTF_8));
        }
    }

    /** The character whose UTF-8 starts at byte {@code i}, for a message. */
    private String escapedChar(int i) {
        int end = i + 1;
        while (end < n && (b[end] & 0xC0) == 0x80) {
            end++;
        }
        return new String(b, i, end - i, StandardCharsets.UTF_8).substring(0, 1);
    }

    /** An ASCII hex digit's value, or -1 (Character.digit would also take other scripts' digits). */
    private static int hexDigit(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** The refusal at byte {@code at}, named by its position in the decoded text. */
    final StorageException fail(int at, String what) {
        String text = new String(b, StandardCharsets.UTF_8);
        int charAt = at >= n ? text.length() : new String(b, 0, at, StandardCharsets.UTF_8).length();
        return Refusal.at(text, charAt, what);
    }
}

package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;

/**
 * The lexical level of {@link ItemParser}: a position in the text, JSON whitespace, strings with
 * every RFC 8259 escape, the literals true and false, and the refusal at a position. The text is
 * scanned in a copy of its chars: an array read costs less per character than {@code charAt}, which
 * checks the string's coder and bounds each time (BENCHMARKS.md, "Item JSON codec").
 */
abstract class TextCursor {
    final String s;
    final char[] chars;
    final int n;
    int pos;

    TextCursor(String s) {
        this.s = s;
        this.chars = s.toCharArray();
        this.n = chars.length;
    }

    final void skipWhitespace() {
        int i = pos;
        while (i < n) {
            char c = chars[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            i++;
        }
        pos = i;
    }

    /** Whether the character at the cursor is {@code c}. */
    final boolean at(char c) {
        return pos < n && chars[pos] == c;
    }

    final void expect(char c, String what) {
        expect(c, what, "");
    }

    /** Reads {@code c}, or fails with "expected " + what + detail (joined only on failure). */
    final void expect(char c, String what, String detail) {
        if (pos < n && chars[pos] == c) {
            pos++;
            return;
        }
        throw fail(pos, "expected " + what + detail);
    }

    final boolean bool() {
        if (s.startsWith("true", pos)) {
            pos += 4;
            return true;
        }
        if (s.startsWith("false", pos)) {
            pos += 5;
            return false;
        }
        throw fail(pos, "expected true or false");
    }

    /**
     * The end (the closing quote) of the string opening at the cursor if it has no escape and no
     * control character, so its text is {@code s[pos + 1, end)}; -1 if it has one or is not closed.
     */
    final int plainStringEnd() {
        for (int i = pos + 1; i < n; i++) {
            char c = chars[i];
            if (c == '"') {
                return i;
            }
            if (c == '\\' || c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    /** A JSON string at the cursor, unescaped. */
    final String string(String what) {
        if (pos >= n || chars[pos] != '"') {
            throw fail(pos, "expected a string for the " + what);
        }
        int start = pos + 1;
        for (int i = start; i < n; i++) {
            char c = chars[i];
            if (c == '"') {
                pos = i + 1;
                return s.substring(start, i);
            }
            if (c == '\\' || c < 0x20) {
                return escapedString(start, i);
            }
        }
        throw fail(pos, "unterminated string");
    }

    /** The rest of a string from its first escape (or stray control character) at {@code i}. */
    private String escapedString(int start, int i) {
        StringBuilder out = new StringBuilder(i - start + 16);
        out.append(s, start, i);
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"') {
                pos = i + 1;
                return out.toString();
            }
            if (c < 0x20) {
                throw fail(i, "unescaped control character U+00" + Refusal.controlName(c).substring(4) + " in a string");
            }
            if (c != '\\') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 >= n) {
                break;
            }
            char e = s.charAt(i + 1);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int k = i + 2; k < i + 6; k++) {
                        int digit = k < n ? hexDigit(s.charAt(k)) : -1;
                        if (digit < 0) {
                            throw fail(i, "invalid \\u escape: four hex digits required");
                        }
                        code = code << 4 | digit;
                    }
                    out.append((char) code);
                    i += 4;
                }
                default -> throw fail(i, "invalid escape '\\" + e + "'");
            }
            i += 2;
        }
        throw fail(start - 1, "unterminated string");
    }

    /** An ASCII hex digit's value, or -1 (Character.digit would also take other scripts' digits). */
    private static int hexDigit(char c) {
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

    final StorageException fail(int at, String what) {
        return Refusal.at(s, at, what);
    }
}

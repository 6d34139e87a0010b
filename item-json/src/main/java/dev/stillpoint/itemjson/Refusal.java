package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;

/**
 * The one form of a refused item text [R6]: a VALIDATION error naming the position and showing the
 * text from there (cut, control characters escaped), so a message stays short whatever the item.
 */
final class Refusal {
    static final int SHOWN_CHARS = 64;
    private static final int EXCERPT_CHARS = 24;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Refusal() {
    }

    /** The refusal of {@code text} at {@code at}: {@code what} went wrong there. */
    static StorageException at(String text, int at, String what) {
        int n = text.length();
        String where;
        if (at >= n) {
            where = "at position " + at + " (end of input)";
        } else {
            StringBuilder shown = new StringBuilder();
            int end = Math.min(n, at + EXCERPT_CHARS);
            for (int i = at; i < end; i++) {
                char c = text.charAt(i);
                if (c < 0x20) {
                    shown.append(controlName(c));
                } else {
                    shown.append(c);
                }
            }
            where = "at position " + at + " ('" + shown + (end < n ? "...'" : "'") + ")";
        }
        return StorageException.validation("invalid item JSON " + where + ": " + what);
    }

    /** A control character as JSON would escape it with backslash-u: {@code \u0001}. */
    static String controlName(char c) {
        return "\\u00" + HEX[c >> 4] + HEX[c & 0xF];
    }

    /** A name or value for a message: quoted, cut to {@value #SHOWN_CHARS} characters with its length noted. */
    static String show(String text) {
        if (text.length() <= SHOWN_CHARS) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, SHOWN_CHARS) + "...' (" + text.length() + " characters)";
    }
}

package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.util.Base64;

/** Null checks and message formatting shared by the item values. */
final class Checks {
    static final int SHOWN_CHARS = 64;

    private Checks() {
    }

    static void requireNonNull(Object value, String what) {
        if (value == null) {
            throw StorageException.validation(what + " must not be null");
        }
    }

    /** The text quoted, cut to {@value #SHOWN_CHARS} characters with its full length noted. */
    static String show(String text) {
        return show(text, SHOWN_CHARS);
    }

    /** The text quoted, cut to {@code max} characters with its full length noted, its controls {@link #visible}. */
    static String show(String text, int max) {
        // Every caller has refused a missing text before it shows one.
        if (text.length() <= max) {
            return "'" + visible(text) + "'";
        }
        return "'" + visible(text.substring(0, max)) + "...' (" + text.length() + " characters)";
    }

    /**
     * The text with each control character (C0, DEL, U+2028, U+2029) written as its JSON escape ({@code \}{@code u}
     * and four hex digits): a refused value is shown in messages and logs, where a raw NUL or line break would cut
     * or split the line.
     */
    static String visible(String text) {
        int i = 0;
        while (i < text.length() && !isControl(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isControl(c)) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isControl(char c) {
        return c < 0x20 || c == 0x7F || c == 0x2028 || c == 0x2029;
    }

    /** A value for a message: its type and its (cut) text. */
    static String show(AttributeValue value) {
        return value.typeName() + " " + show(describe(value));
    }

    private static String describe(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return s.value();
        }
        if (value instanceof AttributeValue.N n) {
            return n.text();
        }
        if (value instanceof AttributeValue.B b) {
            return Base64.getEncoder().encodeToString(b.bytes());
        }
        return value.toString();
    }
}

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
        // Every caller has refused a missing text before it shows one.
        if (text.length() <= SHOWN_CHARS) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, SHOWN_CHARS) + "...' (" + text.length() + " characters)";
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

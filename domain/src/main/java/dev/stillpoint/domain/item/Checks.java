package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Null checks, order-keeping copies and message formatting shared by the item values. */
final class Checks {
    static final int SHOWN_CHARS = 64;

    private Checks() {
    }

    static void requireNonNull(Object value, String what) {
        if (value == null) {
            throw StorageException.validation(what + " must not be null");
        }
    }

    static Set<String> copySet(Set<String> values, String type) {
        requireNonNull(values, type + " values");
        Set<String> copy = new LinkedHashSet<>();
        for (String member : values) {
            if (member == null) {
                throw StorageException.validation(type + " member must not be null");
            }
            copy.add(member);
        }
        return Collections.unmodifiableSet(copy);
    }

    static Map<String, AttributeValue> copyMap(Map<String, AttributeValue> values, String what) {
        requireNonNull(values, what + " attributes");
        // Sized for the entries and messages built only on failure: this runs once per decoded item.
        Map<String, AttributeValue> copy = new LinkedHashMap<>(Math.max(4, (int) (values.size() / 0.75f) + 1));
        for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
            if (e.getKey() == null) {
                throw StorageException.validation(what + " attribute name must not be null");
            }
            if (e.getValue() == null) {
                throw StorageException.validation(what + " value of '" + e.getKey() + "' must not be null");
            }
            copy.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The text quoted, cut to {@value #SHOWN_CHARS} characters with its full length noted. */
    static String show(String text) {
        if (text == null) {
            return "null";
        }
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

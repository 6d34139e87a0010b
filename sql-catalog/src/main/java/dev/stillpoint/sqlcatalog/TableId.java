package dev.stillpoint.sqlcatalog;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The storage id of a table on both jOOQ adapters: lower-case letters and digits only, at most 32, so the
 * names of its data relations, derived from it, are safe SQL identifiers well inside PostgreSQL's 63-byte
 * limit. Never derived from the user's table name.
 *
 * @param value the id
 */
public record TableId(String value) {

    /** The longest id: a UUID's 32 hex digits, what {@link #random()} makes. */
    public static final int MAX_LENGTH = 32;

    private static final Pattern SHAPE = Pattern.compile("[a-z0-9]{1," + MAX_LENGTH + "}");

    /**
     * A table id.
     *
     * @throws IllegalArgumentException naming the value when it is not 1-32 characters of {@code [a-z0-9]}
     */
    public TableId {
        if (value == null || !SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("table id must be 1-" + MAX_LENGTH + " characters of [a-z0-9]: " + value);
        }
    }

    /**
     * A fresh random id.
     *
     * @return a UUID's 32 hex digits
     */
    public static TableId random() {
        return new TableId(UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return value;
    }
}

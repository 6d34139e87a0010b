package dev.stillpoint.adapters.postgres.storage;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The storage id of a table: lower-case letters and digits only, so that the names of its data
 * relations, derived from it, are safe SQL identifiers well inside PostgreSQL's 63-byte limit.
 * Never derived from the user's table name.
 */
public record TableId(String value) {

    /** The longest id: its relations' names stay safe identifiers. */
    static final int MAX_LENGTH = 32;

    private static final Pattern SHAPE = Pattern.compile("[a-z0-9]{1,32}");

    public TableId {
        if (value == null || !SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("table id must be 1-32 characters of [a-z0-9]: " + value);
        }
    }

    /** A fresh random id: a UUID's 32 hex digits. */
    public static TableId random() {
        return new TableId(UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return value;
    }
}

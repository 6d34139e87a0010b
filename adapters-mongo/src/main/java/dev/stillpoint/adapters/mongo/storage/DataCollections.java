package dev.stillpoint.adapters.mongo.storage;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of a table's data collections, derived only from its storage id (32 hex digits), never from
 * the user's table name: {@code d_<id>} for the items, {@code d_<id>__gsi__<n>} and
 * {@code d_<id>__lsi__<n>} for index entries, {@code n} the index's ordinal in the catalog.
 */
public final class DataCollections {

    private static final Pattern TABLE_ID = Pattern.compile("[a-z0-9]{1,64}");
    private static final Pattern DATA = Pattern.compile("d_([a-z0-9]{1,64})(__(gsi|lsi)__\\d+)?");

    private DataCollections() {
    }

    /** A fresh storage id. */
    public static String newTableId() {
        return UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** The items collection of the table. */
    public static String base(String tableId) {
        return "d_" + checked(tableId);
    }

    /** The entries collection of the table's GSI ({@code global}) or LSI with this ordinal. */
    public static String index(String tableId, boolean global, int ordinal) {
        if (ordinal < 0) {
            throw new IllegalArgumentException("index ordinal must not be negative, got " + ordinal);
        }
        return base(tableId) + (global ? "__gsi__" : "__lsi__") + ordinal;
    }

    /** The table id a data collection's name carries, or empty for a collection that is not one of these. */
    public static Optional<String> tableIdOf(String collection) {
        Matcher m = DATA.matcher(collection);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static String checked(String tableId) {
        if (tableId == null || !TABLE_ID.matcher(tableId).matches()) {
            throw new IllegalArgumentException("table id must be 1-64 characters of [a-z0-9], got " + tableId);
        }
        return tableId;
    }
}

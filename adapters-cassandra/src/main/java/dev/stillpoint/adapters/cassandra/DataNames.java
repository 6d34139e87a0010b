package dev.stillpoint.adapters.cassandra;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The CQL names of everything Stillpoint creates. No user text ever enters one: an account's
 * keyspace is named by a hash of the account id, a table's items table by its random table id, an
 * index table by the table id and a random index id. Every name is lower-case {@code [a-z0-9_]}
 * (so unquoted CQL identifiers, case-insensitive by nature, mean exactly it) and at most 48
 * characters, Cassandra's limit.
 */
final class DataNames {

    /** Cassandra's longest keyspace or table name. */
    static final int MAX_NAME = 48;
    /** Hex digits of the account hash in a data keyspace's name. */
    static final int ACCOUNT_HASH_DIGITS = 20;

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0," + (MAX_NAME - 1) + "}");
    private static final Pattern TABLE_ID = Pattern.compile("[a-f0-9]{32}");

    private DataNames() {
    }

    /**
     * The keyspace an account's data tables go to: {@code <prefix>_a_} and the first 20 hex digits
     * of the SHA-256 of the account id. Two accounts sharing a hash would share a keyspace, never a
     * table: tables are named by their own random ids.
     */
    static String accountKeyspace(String prefix, String accountId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(accountId.getBytes(StandardCharsets.UTF_8));
            String hash = HexFormat.of().formatHex(digest).substring(0, ACCOUNT_HASH_DIGITS);
            return identifier(prefix + "_a_" + hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** A fresh table id: a random UUID's 32 hex digits. */
    static String newTableId() {
        return UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** The items table of table {@code tableId}: {@code t_<id>}. */
    static String itemsTable(String tableId) {
        requireTableId(tableId);
        return identifier("t_" + tableId);
    }

    /**
     * A fresh index table of table {@code tableId}: {@code t_<id>_g<8 hex>} for a global index,
     * {@code _l} for a local one. Random, so two concurrent UpdateTables never create the same table
     * with different columns; the catalog records which one the index uses.
     */
    static String newIndexTable(String tableId, boolean global) {
        requireTableId(tableId);
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8).toLowerCase(Locale.ROOT);
        return identifier("t_" + tableId + (global ? "_g" : "_l") + suffix);
    }

    /** {@code name} if it is a safe unquoted CQL identifier of at most 48 characters. */
    static String identifier(String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("not a Stillpoint CQL name (1-48 of [a-z0-9_], a letter first): " + name);
        }
        return name;
    }

    private static void requireTableId(String tableId) {
        if (tableId == null || !TABLE_ID.matcher(tableId).matches()) {
            throw new IllegalArgumentException("table id must be 32 hex digits: " + tableId);
        }
    }
}

package dev.stillpoint.adapters.cassandra;

import static dev.stillpoint.itemjson.CatalogJson.ttl;

import dev.stillpoint.itemjson.CatalogJson;

import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The catalog keyspace's rows. Every write of a {@code tables} row is a lightweight transaction
 * (Cassandra advises against mixing them with plain writes on one row): the insert is
 * {@code IF NOT EXISTS}, every update is conditional on the row's revision (or table id and status),
 * the removal on the table id, so a row of the same name created afresh is never touched by an
 * operation on its predecessor.
 */
final class CatalogStore {

    private static final String COLUMNS = "account_id, table_name, table_id, table_arn, status, created_at, "
            + "data_keyspace, partition_key_name, sort_key_name, attribute_definitions, indexes, stream_specification, "
            + "time_to_live, revision";
    private static final String RESTORE_COLUMNS = "table_id, account_id, table_name, source_table_arn, "
            + "restore_date_time, in_progress, alive_until";

    private final Cql cql;
    private final CassandraConfig config;
    private final String tables;
    private final String accounts;
    private final String restores;
    private final ConcurrentMap<String, String> keyspaces = new ConcurrentHashMap<>();

    CatalogStore(Cql cql, CassandraConfig config) {
        this.cql = cql;
        this.config = config;
        this.tables = config.catalogKeyspace() + ".tables";
        this.accounts = config.catalogKeyspace() + ".accounts";
        this.restores = config.catalogKeyspace() + ".restores";
    }

    /** The table's row, if it has one. */
    Optional<CatalogRow> find(String accountId, String tableName) {
        Row row = cql.read("reading table '" + tableName + "' from the catalog",
                "SELECT " + COLUMNS + " FROM " + tables + " WHERE account_id = ? AND table_name = ?",
                accountId, tableName).one();
        return Optional.ofNullable(row).map(CatalogStore::decode);
    }

    /** The row of {@code tableName}; TableNotFound if there is none. */
    CatalogRow require(String accountId, String tableName) {
        return find(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    /** The account's table names in name order (clustering order: UTF-8 bytes, and names are ASCII). */
    List<String> names(String accountId) {
        List<String> names = new ArrayList<>();
        for (Row row : cql.read("listing tables", "SELECT table_name FROM " + tables + " WHERE account_id = ?", accountId)) {
            names.add(row.getString("table_name"));
        }
        return names;
    }

    /**
     * Inserts the row unless one of its name exists: the single arbiter of concurrent CreateTables.
     * Empty when inserted; otherwise the status of the row that was there.
     */
    Optional<String> insertIfAbsent(CatalogRow row) {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return tryInsert(row);
            } catch (StorageException e) {
                if (!DriverFailures.isCasUncertain(e)) {
                    throw e;
                }
                // The transaction's outcome is unknown: a serial read completes it and tells.
                Row current = cql.serialRead("reading table '" + row.tableName() + "' after an uncertain insert",
                        "SELECT table_id, status FROM " + tables + " WHERE account_id = ? AND table_name = ?",
                        row.accountId(), row.tableName()).one();
                if (current != null) {
                    return row.tableId().equals(current.getString("table_id"))
                            ? Optional.empty() : Optional.of(current.getString("status"));
                }
            }
        }
        throw new StorageException(dev.stillpoint.domain.error.ErrorReason.TRANSIENT, "creating table '"
                + row.tableName() + "': the catalog insert timed out repeatedly under contention; try again");
    }

    private Optional<String> tryInsert(CatalogRow row) {
        ResultSet rs = cql.run("creating table '" + row.tableName() + "' in the catalog",
                "INSERT INTO " + tables + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS",
                row.accountId(), row.tableName(), row.tableId(), row.tableArn(), row.status().name(), row.createdAt(),
                row.dataKeyspace(), row.keySchema().partitionKey(), row.keySchema().sortKey().orElse(null),
                CatalogJson.definitions(row.definitions()), IndexColumn.encode(row.indexes()),
                CatalogJson.stream(row.stream()),
                ttl(row.timeToLive()), row.revision());
        if (rs.wasApplied()) {
            return Optional.empty();
        }
        Row existing = rs.one();
        String status = existing == null ? null : existing.getString("status");
        return Optional.of(status == null ? "unknown" : status);
    }

    /** Sets a CREATING row ACTIVE; false when the row is no longer this table's CREATING row. */
    boolean activate(CatalogRow row) {
        return cql.run("activating table '" + row.tableName() + "'",
                "UPDATE " + tables + " SET status = ?, revision = ? WHERE account_id = ? AND table_name = ? "
                        + "IF table_id = ? AND status = ?",
                TableStatus.ACTIVE.name(), row.revision() + 1, row.accountId(), row.tableName(), row.tableId(),
                TableStatus.CREATING.name()).wasApplied();
    }

    /** Writes the row's definitions and indexes if its revision is still {@code expectedRevision}. */
    boolean updateIndexes(CatalogRow updated, long expectedRevision) {
        return cql.run("updating the indexes of table '" + updated.tableName() + "'",
                "UPDATE " + tables + " SET attribute_definitions = ?, indexes = ?, revision = ? "
                        + "WHERE account_id = ? AND table_name = ? IF table_id = ? AND revision = ?",
                CatalogJson.definitions(updated.definitions()), IndexColumn.encode(updated.indexes()),
                updated.revision(), updated.accountId(), updated.tableName(), updated.tableId(),
                expectedRevision).wasApplied();
    }

    /** Removes the row if it is still this table's (not a newer table of the same name). */
    boolean remove(CatalogRow row) {
        return cql.run("removing table '" + row.tableName() + "' from the catalog",
                "DELETE FROM " + tables + " WHERE account_id = ? AND table_name = ? IF table_id = ?",
                row.accountId(), row.tableName(), row.tableId()).wasApplied();
    }

    /**
     * The keyspace of the account's data tables, created (and recorded in {@code accounts}) on first
     * use. One thread per account per engine resolves it; engines racing to create it all run
     * {@code CREATE KEYSPACE IF NOT EXISTS}, and the first recorded name is the one everyone uses.
     */
    String dataKeyspace(String accountId) {
        return keyspaces.computeIfAbsent(accountId, this::resolveKeyspace);
    }

    private String resolveKeyspace(String accountId) {
        Row row = cql.read("reading the data keyspace of the account",
                "SELECT data_keyspace FROM " + accounts + " WHERE account_id = ?", accountId).one();
        if (row != null) {
            return DataNames.identifier(row.getString("data_keyspace"));
        }
        String keyspace = DataNames.accountKeyspace(config.keyspacePrefix(), accountId);
        cql.ddl("creating the account's keyspace '" + keyspace + "'", "CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = " + CatalogSchema.replication(config) + " AND durable_writes = true");
        ResultSet rs = cql.run("recording the account's keyspace",
                "INSERT INTO " + accounts + " (account_id, data_keyspace, created_at) VALUES (?, ?, ?) IF NOT EXISTS",
                accountId, keyspace, config.time().now());
        if (rs.wasApplied()) {
            return keyspace;
        }
        Row existing = rs.one();
        return DataNames.identifier(existing.getString("data_keyspace"));
    }

    /** Every table's row, of every account (the catalog is small: one row per table). */
    List<CatalogRow> all() {
        List<CatalogRow> rows = new ArrayList<>();
        for (Row row : cql.read("listing every table", "SELECT " + COLUMNS + " FROM " + tables)) {
            rows.add(decode(row));
        }
        return rows;
    }

    /** The table's last counted items and bytes and its indexes', 0 before its first count. */
    TableStatistics.Counts statistics(String tableId) {
        Row row = cql.read("reading the counts of table " + tableId, "SELECT item_count, size_bytes, index_item_counts, "
                + "index_size_bytes FROM " + config.catalogKeyspace() + ".table_statistics WHERE table_id = ?", tableId).one();
        if (row == null) {
            return new TableStatistics.Counts(0, 0);
        }
        Map<String, Long> bytes = row.getMap("index_size_bytes", String.class, Long.class);
        Map<String, TableStatistics.Counts> indexes = new HashMap<>();
        row.getMap("index_item_counts", String.class, Long.class).forEach((name, items) ->
                indexes.put(name, new TableStatistics.Counts(items, bytes.getOrDefault(name, 0L))));
        return new TableStatistics.Counts(row.getLong("item_count"), row.getLong("size_bytes"), indexes);
    }

    /** Records a table's counted items and bytes, and each counted index's. */
    void recordStatistics(String tableId, TableStatistics.Counts counts) {
        Map<String, Long> items = new HashMap<>();
        Map<String, Long> bytes = new HashMap<>();
        counts.indexes().forEach((name, index) -> {
            items.put(name, index.items());
            bytes.put(name, index.bytes());
        });
        cql.run("recording the counts of table " + tableId, "UPDATE " + config.catalogKeyspace() + ".table_statistics"
                        + " SET item_count = ?, size_bytes = ?, index_item_counts = ?, index_size_bytes = ? WHERE table_id = ?",
                counts.items(), counts.bytes(), items, bytes, tableId);
    }

    /** Forgets a dropped table's counts. */
    void forgetStatistics(String tableId) {
        cql.run("forgetting the counts of table " + tableId, "DELETE FROM " + config.catalogKeyspace()
                + ".table_statistics WHERE table_id = ?", tableId);
    }

    /** Records a restore before its table's row is inserted; every later change of the row is an LWT too. */
    void insertRestore(RestoreRecord r) {
        cql.run("recording the restore of table '" + r.tableName() + "'", "INSERT INTO " + restores
                        + " (table_id, account_id, table_name, source_table_arn, restore_date_time, in_progress, alive_until)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS",
                r.tableId(), r.accountId(), r.tableName(), r.sourceTableArn().orElse(null), r.restoreDateTime(),
                r.inProgress(), r.aliveUntil());
    }

    /** The restore of the table {@code tableId}, if it was restored. */
    Optional<RestoreRecord> restore(String tableId) {
        Row row = cql.read("reading the restore of table " + tableId, "SELECT " + RESTORE_COLUMNS + " FROM " + restores
                + " WHERE table_id = ?", tableId).one();
        return Optional.ofNullable(row).map(CatalogStore::decodeRestore);
    }

    /** Every restore still in progress (the catalog is small: one row per restored table). */
    List<RestoreRecord> restoresInProgress() {
        List<RestoreRecord> out = new ArrayList<>();
        for (Row row : cql.read("listing restores", "SELECT " + RESTORE_COLUMNS + " FROM " + restores)) {
            RestoreRecord r = decodeRestore(row);
            if (r.inProgress()) {
                out.add(r);
            }
        }
        return out;
    }

    /** Renews a restore's stamp; false when it is no longer in progress (completed, or removed with its table). */
    boolean renewRestore(String tableId, Instant aliveUntil) {
        return cql.run("renewing the restore of table " + tableId, "UPDATE " + restores
                + " SET alive_until = ? WHERE table_id = ? IF in_progress = true", aliveUntil, tableId).wasApplied();
    }

    /** Marks a restore no longer in progress (after its table's row turned ACTIVE). */
    void endRestore(String tableId) {
        cql.run("ending the restore of table " + tableId, "UPDATE " + restores
                + " SET in_progress = false WHERE table_id = ? IF in_progress = true", tableId);
    }

    /** Forgets a removed table's restore. */
    void forgetRestore(String tableId) {
        cql.run("forgetting the restore of table " + tableId, "DELETE FROM " + restores + " WHERE table_id = ? IF EXISTS",
                tableId);
    }

    private static RestoreRecord decodeRestore(Row r) {
        return new RestoreRecord(r.getString("table_id"), r.getString("account_id"), r.getString("table_name"),
                Optional.ofNullable(r.getString("source_table_arn")),
                Optional.ofNullable(r.getInstant("restore_date_time")).orElse(Instant.EPOCH),
                Boolean.TRUE.equals(r.get("in_progress", Boolean.class)),
                Optional.ofNullable(r.getInstant("alive_until")).orElse(Instant.EPOCH));
    }

    private static CatalogRow decode(Row r) {
        String name = r.getString("table_name");
        return new CatalogRow(r.getString("account_id"), name, r.getString("table_id"), r.getString("table_arn"),
                TableStatus.valueOf(r.getString("status")), Optional.ofNullable(r.getInstant("created_at"))
                        .orElse(Instant.EPOCH),
                DataNames.identifier(r.getString("data_keyspace")),
                new KeySchema(r.getString("partition_key_name"), Optional.ofNullable(r.getString("sort_key_name"))),
                CatalogJson.definitions(r.getString("attribute_definitions")),
                IndexColumn.decode(r.getString("indexes")),
                CatalogJson.stream(r.getString("stream_specification")),
                ttl(r.getString("time_to_live")), r.getLong("revision"));
    }
}

package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.InOrderBatch;
import dev.stillpoint.ports.out.ItemStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Item writes and reads on Cassandra, with their index entries.
 *
 * <p>Cassandra has no multi-partition transactions, so an item and its index entries are kept
 * consistent by three rules:
 * <ol>
 *   <li>Every write of an item is a lightweight transaction on its row, conditional on the revision
 *       it read ({@code IF rev = ?}, or {@code IF NOT EXISTS}), so each write knows exactly which
 *       item it replaced; the new revision is {@code max(old + 1, now in microseconds)}.</li>
 *   <li>Index entries are written and deleted {@code USING TIMESTAMP <revision>} of the item version
 *       that caused them, in one logged batch: Cassandra resolves every cell by timestamp, so
 *       whatever order concurrent writers' batches (and a backfill) arrive in, an entry written by
 *       an older version never outlives the delete of a newer one.</li>
 *   <li>After its index writes, a write reads the catalog row again and, if an index appeared
 *       meanwhile (UpdateTable), writes that index's entries too. UpdateTable records the index
 *       (CREATING) before its backfill scans the items, so every item is covered either by the
 *       backfill's scan (written before the index was recorded) or by its writer's second look.</li>
 * </ol>
 * A lightweight transaction that times out (WRITE_TIMEOUT of type CAS, CAS_WRITE_UNKNOWN) has an
 * unknown outcome; a serial read of the row settles it (applied exactly when the row holds this
 * write's revision and text), so an applied write still gets its index entries and an unapplied
 * one is retried. A writer that dies between its item write and its index writes leaves the index
 * behind the item until the item is written again: there is no background repair. Revisions are
 * microsecond clock readings where that exceeds the previous one, so a delete and a later re-put of
 * an item from different clients order their index writes correctly only as far as the clients'
 * clocks agree (Cassandra's own last-write-wins makes the same assumption).
 */
final class CassandraItems implements ItemStore {

    /** Attempts of one conditional write before giving up with Transient. */
    private static final int MAX_ATTEMPTS = 32;

    private final Cql cql;
    private final CatalogStore catalog;
    private final IndexEntries entries;
    private final CassandraConfig config;
    private volatile WriteHooks hooks = WriteHooks.NONE;

    CassandraItems(Cql cql, CatalogStore catalog, IndexEntries entries, CassandraConfig config) {
        this.cql = cql;
        this.catalog = catalog;
        this.entries = entries;
        this.config = config;
    }

    /** For this package's tests only. */
    void hooks(WriteHooks newHooks) {
        this.hooks = newHooks == null ? WriteHooks.NONE : newHooks;
    }

    @Override
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        CatalogRow row = catalog.require(accountId, tableName);
        ItemWrite write = rules.apply(row.description());
        hooks.afterCatalogRead(tableName);
        store(row, tableName, write);
    }

    /**
     * Cassandra has no transaction across partitions: every table's definition is read and every rule
     * applied first (a refusal writes nothing), then each change is applied as a put or delete would
     * be, in order, and a failure after some were applied returns the rest unprocessed [R7].
     */
    @Override
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        Map<String, CatalogRow> rows = new LinkedHashMap<>();
        Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
        rules.forEach((tableName, tableRules) -> {
            CatalogRow row = catalog.require(accountId, tableName);
            rows.put(tableName, row);
            changes.put(tableName, tableRules.apply(row.description()));
        });
        rows.keySet().forEach(hooks::afterCatalogRead);
        return InOrderBatch.apply(changes, (tableName, change) -> {
            CatalogRow row = rows.get(tableName);
            if (change instanceof ItemChange.Put p) {
                store(row, tableName, p.write());
            } else {
                remove(row, tableName, BaseKey.of(row, change.key()));
            }
        });
    }

    @Override
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        CatalogRow row = catalog.require(accountId, tableName);
        BaseKey k = BaseKey.of(row, rules.apply(row.description()));
        return DriverFailures.whileTableExists(tableName, "reading an item", () -> {
            Stored stored = read(row, k);
            return stored == null ? Optional.empty() : Optional.of(ItemJson.decode(stored.json));
        });
    }

    @Override
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        CatalogRow row = catalog.require(accountId, tableName);
        remove(row, tableName, BaseKey.of(row, rules.apply(row.description())));
    }

    /** Writes one checked item under its revision, then its index entries. */
    private void store(CatalogRow row, String tableName, ItemWrite write) {
        Item valid = write.item();
        String json = ItemJson.encode(valid);
        BaseKey key = BaseKey.of(row, write.key());
        DriverFailures.whileTableExists(tableName, "writing an item", () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stored old = read(row, key);
                long rev = nextRevision(old == null ? 0 : old.rev);
                hooks.beforeItemWrite(tableName);
                boolean applied;
                try {
                    applied = (old == null
                            ? cql.run("writing an item of '" + tableName + "'", ItemStatements.insertItem(row),
                                    ItemStatements.insertValues(key, json, rev))
                            : cql.run("writing an item of '" + tableName + "'", ItemStatements.updateItem(row),
                                    ItemStatements.updateValues(json, rev, key, old.rev))).wasApplied();
                } catch (StorageException e) {
                    if (!DriverFailures.isCasUncertain(e)) {
                        throw e;
                    }
                    // Unknown outcome: applied exactly when the row now holds this write (its revision and text).
                    Stored now = serialRead(row, key);
                    applied = now != null && now.rev == rev && now.json.equals(json);
                }
                if (applied) {
                    hooks.afterItemWrite(tableName);
                    Optional<Item> before = old == null ? Optional.empty() : Optional.of(ItemJson.decode(old.json));
                    entries.maintain(row, row.indexes(), key, before, Optional.of(valid), rev);
                    entries.followCatalog(row, key, before, Optional.of(valid), rev);
                    return null;
                }
            }
            throw contended(tableName);
        });
    }

    /** Deletes one item under its revision, then its index entries; a missing item is no error. */
    private void remove(CatalogRow row, String tableName, BaseKey k) {
        DriverFailures.whileTableExists(tableName, "deleting an item", () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stored old = read(row, k);
                if (old == null) {
                    return null;
                }
                long rev = nextRevision(old.rev);
                boolean applied;
                try {
                    applied = cql.run("deleting an item of '" + tableName + "'", ItemStatements.deleteItem(row),
                            ItemStatements.deleteValues(k, old.rev)).wasApplied();
                } catch (StorageException e) {
                    if (!DriverFailures.isCasUncertain(e)) {
                        throw e;
                    }
                    // Unknown outcome: gone means deleted (by this delete or another; either way its
                    // entries go); any other version means try again on it.
                    applied = serialRead(row, k) == null;
                }
                if (applied) {
                    Optional<Item> before = Optional.of(ItemJson.decode(old.json));
                    entries.maintain(row, row.indexes(), k, before, Optional.empty(), rev);
                    entries.followCatalog(row, k, before, Optional.empty(), rev);
                    return null;
                }
            }
            throw contended(tableName);
        });
    }

    private static StorageException contended(String tableName) {
        return new StorageException(ErrorReason.TRANSIENT, "an item of table '" + tableName + "' was changed "
                + MAX_ATTEMPTS + " times by other writers while this write tried; try again");
    }

    /** The revision after {@code old}: later than it, and no earlier than now (microseconds). */
    private long nextRevision(long old) {
        Instant now = config.time().now();
        long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000L);
        return Math.max(old + 1, micros);
    }

    /** An item's stored text and revision. */
    private record Stored(String json, long rev) {
    }

    private Stored serialRead(CatalogRow row, BaseKey key) {
        Row r = cql.serialRead("reading an item of '" + row.tableName() + "' after an uncertain write",
                ItemStatements.selectItem(row), key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }

    private Stored read(CatalogRow row, BaseKey key) {
        Row r = cql.read("reading an item of '" + row.tableName() + "'", ItemStatements.selectItem(row), key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }
}

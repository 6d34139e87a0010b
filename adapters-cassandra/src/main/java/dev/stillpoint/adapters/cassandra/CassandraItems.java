package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.time.Instant;
import java.util.Optional;

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
 * clocks agree (Cassandra's own last-write-wins makes the same assumption); each client's clock is
 * corrected to the cluster's when it opens ({@code CatalogClock}), to within a few milliseconds.
 */
final class CassandraItems implements ItemStorage {

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

    /**
     * Cassandra has no transaction across partitions: the unit applies each change when it is called,
     * so the core applies a batch in order and hands back what a failure left unapplied [R7].
     */
    @Override
    public <T> T inUnit(String doing, UnitWork<T> work) {
        return work.run(new ItemUnit() {
            @Override
            public boolean atomic() {
                return false;
            }

            @Override
            public Optional<StorageTable> load(String accountId, String tableName) {
                Optional<CatalogRow> row = catalog.find(accountId, tableName);
                row.ifPresent(r -> hooks.afterCatalogRead(tableName));
                return row.map(StorageTable.class::cast);
            }

            @Override
            public void upsert(StorageTable table, ItemWrite write) {
                CatalogRow row = (CatalogRow) table;
                store(row, row.tableName(), write);
            }

            @Override
            public void delete(StorageTable table, Key key) {
                CatalogRow row = (CatalogRow) table;
                remove(row, row.tableName(), CqlKey.base(row, key));
            }
        });
    }

    @Override
    public Optional<StorageTable> table(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(StorageTable.class::cast);
    }

    @Override
    public Optional<Item> read(StorageTable table, Key key) {
        CatalogRow row = (CatalogRow) table;
        CqlKey k = CqlKey.base(row, key);
        return DriverFailures.whileTableExists(row.tableName(), "reading an item", () -> {
            Stored stored = read(row, k);
            return stored == null ? Optional.empty() : Optional.of(ItemJson.decode(stored.json));
        });
    }

    /** Writes one checked item under its revision, then its index entries. */
    private void store(CatalogRow row, String tableName, ItemWrite write) {
        change(row, tableName, CqlKey.base(row, write.key()), Optional.of(write.item()));
    }

    /** Deletes one item under its revision, then its index entries; a missing item is no error. */
    private void remove(CatalogRow row, String tableName, CqlKey key) {
        change(row, tableName, key, Optional.empty());
    }

    /**
     * Replaces the item under {@code key} with {@code after} (empty: deletes it) by a lightweight transaction
     * on the revision it read (rule 1), then maintains its index entries at the new revision (rules 2, 3).
     */
    private void change(CatalogRow row, String tableName, CqlKey key, Optional<Item> after) {
        String json = after.map(ItemJson::encode).orElse(null);
        String what = after.isPresent() ? "writing an item" : "deleting an item";
        String doing = what + " of '" + tableName + "'";
        DriverFailures.whileTableExists(tableName, what, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stored old = read(row, key);
                if (old == null && after.isEmpty()) {
                    return null;
                }
                long rev = nextRevision(old == null ? 0 : old.rev);
                if (after.isPresent()) {
                    hooks.beforeItemWrite(tableName);
                }
                boolean applied;
                try {
                    applied = (after.isEmpty()
                            ? cql.run(doing, ItemStatements.deleteItem(row), ItemStatements.values(key, old.rev))
                            : old == null
                            ? cql.run(doing, ItemStatements.insertItem(row), ItemStatements.values(key, json, rev))
                            : cql.run(doing, ItemStatements.updateItem(row),
                                    ItemStatements.values(json, rev, key, old.rev))).wasApplied();
                } catch (StorageException e) {
                    if (!DriverFailures.isCasUncertain(e)) {
                        throw e;
                    }
                    // Unknown outcome: a put applied exactly when the row now holds it (its revision and text);
                    // a delete when the row is gone (by this delete or another; either way its entries go).
                    Stored now = serialRead(row, key);
                    applied = after.isEmpty() ? now == null : now != null && now.rev == rev && now.json.equals(json);
                }
                if (applied) {
                    if (after.isPresent()) {
                        hooks.afterItemWrite(tableName);
                    }
                    Optional<Item> before = old == null ? Optional.empty() : Optional.of(ItemJson.decode(old.json));
                    entries.maintain(row, row.indexes(), key, before, after, rev);
                    entries.followCatalog(row, key, before, after, rev);
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

    private Stored serialRead(CatalogRow row, CqlKey key) {
        Row r = cql.serialRead("reading an item of '" + row.tableName() + "' after an uncertain write",
                ItemStatements.selectItem(row), key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }

    private Stored read(CatalogRow row, CqlKey key) {
        Row r = cql.read("reading an item of '" + row.tableName() + "'", ItemStatements.selectItem(row), key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }
}

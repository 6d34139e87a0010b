package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.sqlcatalog.RowLock;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One unit of item work on PostgreSQL. Stamps are read FOR KEY SHARE on the unit's catalog connection,
 * all in one round trip ({@link Pipeline}), so UpdateTable and DeleteTable, which take the row FOR
 * UPDATE, wait for the write; upserts and deletes are only added to a pipeline, sent in one round trip
 * when the core's work returns ({@link #send}). On the optimistic path ({@link #optimistic}) the unit
 * has no transaction of its own: the pipeline starts with each table's required stamp and runs on an
 * auto-commit connection, one round trip in all.
 */
final class PgItemUnit implements ItemUnit {

    private final Transaction work;
    private final WriteStatements statements;
    private final Pipeline writes;
    /**
     * The tables this unit wrote to, so a relation found missing can be judged against their rows: by identity
     * (the core hands one definition per table to a unit), not by a record's deep hash on every write.
     */
    private final List<StorageTable> written = new ArrayList<>(1);

    private PgItemUnit(Transaction work, WriteStatements statements, Pipeline writes) {
        this.work = work;
        this.statements = statements;
        this.writes = writes;
    }

    /** A unit in {@code work}'s transaction. */
    static PgItemUnit in(Transaction work, WriteStatements statements) {
        return new PgItemUnit(work, statements, new Pipeline());
    }

    /** A unit that only adds writes to {@code pipeline}, after its required stamps. */
    static PgItemUnit optimistic(Pipeline pipeline, WriteStatements statements) {
        return new PgItemUnit(null, statements, pipeline);
    }

    /** The tables this unit wrote to (an upsert or a delete), in the order of their first write. */
    List<StorageTable> written() {
        return written;
    }

    private void noteWritten(StorageTable table) {
        for (StorageTable t : written) {
            if (t == table) {
                return;
            }
        }
        written.add(table);
    }

    /** Sends the writes in one round trip on the unit's data connection. */
    void send() throws SQLException {
        writes.run(work.dataConnection());
    }

    @Override
    public boolean atomic() {
        return true;
    }

    @Override
    public List<Optional<CatalogStamp>> stamps(String accountId, List<String> tableNames) {
        Pipeline reads = new Pipeline();
        tableNames.forEach(tableName -> reads.stamp(accountId, tableName));
        try {
            List<Optional<CatalogStamp>> out = new ArrayList<>(tableNames.size());
            reads.run(transaction().catalogConnection()).forEach(stamp -> out.add(Optional.ofNullable(stamp)));
            return out;
        } catch (SQLException e) {
            throw PgFailures.map("reading the catalog stamps of " + tableNames, e);
        }
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        Connection catalog = transaction().catalogConnection();
        return CatalogRows.loadForItems(Transaction.dsl(catalog), accountId, tableName, RowLock.KEY_SHARE)
                .map(StorageTable.class::cast);
    }

    /**
     * Upserts the item, then replaces its index entries with exactly those {@code write} names; where the
     * table keeps a change log, one PUT change in the same pipeline [I1] (see
     * {@link WriteStatements.ChangeStatements}), so it commits exactly when the item does.
     */
    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        noteWritten(table);
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        List<Object> key = ItemKeys.of(write.key()).values();
        String json = ItemJson.encode(write.item());
        Optional<ChangeRelation> changes = loaded.changes();
        boolean oldImages = loaded.description().changeLog().keepsOldImage();
        WriteStatements.ChangeStatements logged = changes.map(c -> statements.changes(loaded, c, oldImages)).orElse(null);
        String keyJson = changes.isPresent() ? keyJson(loaded, write.key()) : null;
        if (logged != null && oldImages) {
            // Takes the item's row and logs the change with the row as it was, before the upsert below.
            List<Object> lockFirst = values(List.of(), key, json);
            lockFirst.addAll(key);
            lockFirst.add(keyJson);
            lockFirst.add(json);
            writes.add(logged.put(), lockFirst);
        }
        // The base relation first, then the index relations: the order DeleteTable drops them in.
        writes.add(statements.base(loaded).write(), values(List.of(), key, json));
        removeIndexEntries(loaded, key);
        for (IndexRow index : loaded.row().indexes()) {
            Optional<Key> entry = write.indexKey(index.name());
            if (entry.isPresent()) {
                writes.add(statements.index(loaded, index).write(), values(ItemKeys.of(entry.get()).values(), key, json));
            }
        }
        if (logged != null && !oldImages) {
            // After the upsert, which holds the item's row: this change's seq follows the key's earlier ones.
            List<Object> change = new ArrayList<>(key);
            change.add(keyJson);
            change.add(json);
            writes.add(logged.put(), change);
        }
    }

    /**
     * Removes the item under {@code key}, base relation first, then its index entries; where the table keeps
     * a change log, the base delete also writes the tombstone, only when it removed an item [I1].
     */
    @Override
    public void delete(StorageTable table, Key key) {
        noteWritten(table);
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        List<Object> values = ItemKeys.of(key).values();
        Optional<ChangeRelation> changes = loaded.changes();
        if (changes.isPresent()) {
            WriteStatements.ChangeStatements logged = statements.changes(loaded, changes.get(),
                    loaded.description().changeLog().keepsOldImage());
            List<Object> tombstone = new ArrayList<>(values);
            tombstone.addAll(values);
            tombstone.add(keyJson(loaded, key));
            writes.add(logged.delete(), tombstone);
        } else {
            writes.add(statements.base(loaded).delete(), values);
        }
        removeIndexEntries(loaded, values);
    }

    /** The key's attributes under the table's key names, as DynamoDB JSON: a change's {@code Keys}. */
    private static String keyJson(CatalogRows.Loaded loaded, Key key) {
        return ItemJson.encode(key.asItem(loaded.description().keySchema()));
    }

    private Transaction transaction() {
        if (work == null) {
            throw new IllegalStateException("the optimistic path reads no definition");
        }
        return work;
    }

    private void removeIndexEntries(CatalogRows.Loaded loaded, List<Object> key) {
        for (IndexRow index : loaded.row().indexes()) {
            writes.add(statements.index(loaded, index).delete(), key);
        }
    }

    private static List<Object> values(List<Object> entryKey, List<Object> key, String json) {
        List<Object> out = new ArrayList<>(entryKey.size() + key.size() + 1);
        out.addAll(entryKey);
        out.addAll(key);
        out.add(json);
        return out;
    }
}

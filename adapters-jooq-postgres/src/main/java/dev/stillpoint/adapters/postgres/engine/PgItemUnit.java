package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
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

    private final Work work;
    private final WriteStatements statements;
    private final Pipeline writes;

    private PgItemUnit(Work work, WriteStatements statements, Pipeline writes) {
        this.work = work;
        this.statements = statements;
        this.writes = writes;
    }

    /** A unit in {@code work}'s transaction. */
    static PgItemUnit in(Work work, WriteStatements statements) {
        return new PgItemUnit(work, statements, new Pipeline());
    }

    /** A unit that only adds writes to {@code pipeline}, after its required stamps. */
    static PgItemUnit optimistic(Pipeline pipeline, WriteStatements statements) {
        return new PgItemUnit(null, statements, pipeline);
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
        return CatalogRows.loadForItems(Work.dsl(catalog), accountId, tableName, CatalogRows.RowLock.KEY_SHARE)
                .map(StorageTable.class::cast);
    }

    /** Upserts the item, then replaces its index entries with exactly those {@code write} names. */
    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        List<Object> key = ItemKeys.of(write.key()).values();
        String json = ItemJson.encode(write.item());
        // The base relation first, then the index relations: the order DeleteTable drops them in.
        writes.add(statements.base(loaded).write(), values(List.of(), key, json));
        removeIndexEntries(loaded, key);
        for (SpIndexesRecord index : loaded.indexes()) {
            Optional<Key> entry = write.indexKey(index.getIndexName());
            if (entry.isPresent()) {
                writes.add(statements.index(loaded, index).write(), values(ItemKeys.of(entry.get()).values(), key, json));
            }
        }
    }

    /** Removes the item under {@code key}, base relation first, then its index entries. */
    @Override
    public void delete(StorageTable table, Key key) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        List<Object> values = ItemKeys.of(key).values();
        writes.add(statements.base(loaded).delete(), values);
        removeIndexEntries(loaded, values);
    }

    private Work transaction() {
        if (work == null) {
            throw new IllegalStateException("the optimistic path reads no definition");
        }
        return work;
    }

    private void removeIndexEntries(CatalogRows.Loaded loaded, List<Object> key) {
        for (SpIndexesRecord index : loaded.indexes()) {
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

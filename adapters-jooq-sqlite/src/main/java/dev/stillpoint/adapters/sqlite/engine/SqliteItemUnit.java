package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.sqlcatalog.ChangeRows;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * One unit of item work on SQLite: the writer's IMMEDIATE transaction, with its kept statements
 * (issue 13). Every call runs at once; the transaction commits when the core's work returns.
 */
final class SqliteItemUnit implements ItemUnit {

    private final String doing;
    private final DSLContext ctx;
    private final WriteStatements kept;

    SqliteItemUnit(String doing, DSLContext ctx, WriteStatements kept) {
        this.doing = doing;
        this.ctx = ctx;
        this.kept = kept;
    }

    @Override
    public boolean atomic() {
        return true;
    }

    @Override
    public List<Optional<CatalogStamp>> stamps(String accountId, List<String> tableNames) {
        List<Optional<CatalogStamp>> out = new ArrayList<>(tableNames.size());
        try {
            for (String tableName : tableNames) {
                out.add(Optional.ofNullable(kept.stamp(accountId, tableName)));
            }
        } catch (SQLException e) {
            throw SqlFailures.map(doing, e);
        }
        return out;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return CatalogRows.load(ctx, accountId, tableName).map(StorageTable.class::cast);
    }

    /**
     * Writes the item and exactly its index entries, the earlier version's entries removed; where the table
     * keeps a change log, one PUT change in this transaction [I1] (the old image read first when kept).
     */
    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        ItemKeys key = ItemKeys.of(write.key());
        ChangeLog log = loaded.description().changeLog();
        try {
            String old = log.keepsOldImage() ? kept.readItem(loaded.row().relationName(), key) : null;
            removeIndexEntries(loaded, key);
            String json = ItemJson.encode(write.item());
            kept.upsertItem(loaded.row().relationName(), key, json);
            if (log.enabled()) {
                kept.logChange(loaded.changes(), ChangeRows.PUT, key, keyJson(loaded, write.key()), json, old);
            }
            for (IndexRow index : loaded.row().indexes()) {
                Optional<Key> entry = write.indexKey(index.name());
                if (entry.isPresent()) {
                    kept.insertEntry(index.relationName(), ItemKeys.of(entry.get()), key, json);
                }
            }
        } catch (SQLException e) {
            throw SqlFailures.map(doing, e);
        }
    }

    /**
     * Removes the item and its index entries; where the table keeps a change log and an item was there, one
     * DELETE change (a tombstone: the keys, and the old image where kept) in this transaction [I1]. A delete
     * of a key with no item changed nothing, so it records nothing.
     */
    @Override
    public void delete(StorageTable table, Key key) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        ItemKeys k = ItemKeys.of(key);
        ChangeLog log = loaded.description().changeLog();
        try {
            String old = log.keepsOldImage() ? kept.readItem(loaded.row().relationName(), k) : null;
            removeIndexEntries(loaded, k);
            int removed = kept.delete(loaded.row().relationName(), k);
            if (log.enabled() && removed > 0) {
                kept.logChange(loaded.changes(), ChangeRows.DELETE, k, keyJson(loaded, key), null, old);
            }
        } catch (SQLException e) {
            throw SqlFailures.map(doing, e);
        }
    }

    /** The key's attributes under the table's key names, as DynamoDB JSON: a change's {@code Keys}. */
    private static String keyJson(CatalogRows.Loaded loaded, Key key) {
        return ItemJson.encode(key.asItem(loaded.description().keySchema()));
    }

    private void removeIndexEntries(CatalogRows.Loaded loaded, ItemKeys key) throws SQLException {
        for (IndexRow index : loaded.row().indexes()) {
            kept.delete(index.relationName(), key);
        }
    }
}

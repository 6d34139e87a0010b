package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.domain.item.Key;
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

    /** Writes the item and exactly its index entries, the earlier version's entries removed. */
    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        ItemKeys key = ItemKeys.of(write.key());
        try {
            removeIndexEntries(loaded, key);
            String json = ItemJson.encode(write.item());
            kept.upsertItem(loaded.row().getRelationName(), key, json);
            for (SpIndexesRecord index : loaded.indexes()) {
                Optional<Key> entry = write.indexKey(index.getIndexName());
                if (entry.isPresent()) {
                    kept.insertEntry(index.getRelationName(), ItemKeys.of(entry.get()), key, json);
                }
            }
        } catch (SQLException e) {
            throw SqlFailures.map(doing, e);
        }
    }

    @Override
    public void delete(StorageTable table, Key key) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        ItemKeys k = ItemKeys.of(key);
        try {
            removeIndexEntries(loaded, k);
            kept.delete(loaded.row().getRelationName(), k);
        } catch (SQLException e) {
            throw SqlFailures.map(doing, e);
        }
    }

    private void removeIndexEntries(CatalogRows.Loaded loaded, ItemKeys key) throws SQLException {
        for (SpIndexesRecord index : loaded.indexes()) {
            kept.delete(index.getRelationName(), key);
        }
    }
}

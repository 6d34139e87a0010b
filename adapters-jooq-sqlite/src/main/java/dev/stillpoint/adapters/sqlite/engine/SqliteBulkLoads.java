package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.TableLoads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * Restore's bulk path on SQLite [B1]: each write of the load is one IMMEDIATE transaction on the writer
 * connection (the core hands over chunks of up to 10,000 items), with one plain INSERT per relation
 * prepared once for the transaction and run for every item. Against the units of item work it leaves out
 * what a new table does not need: no catalog stamp read per unit, no delete of an earlier version's index
 * entries, no upsert; a key written twice fails the base relation's primary key (SQLITE_CONSTRAINT,
 * answered VALIDATION). Each write commits, so the writer lock is held one chunk at a time and other
 * tables' writes go on between chunks; the table stays CREATING until the restore completes, so a
 * failure or a killed process leaves only what the restore's removal (or the poller's) takes away [E5].
 */
public final class SqliteBulkLoads implements BulkLoads {

    private static final DSLContext RENDER = DSL.using(SQLDialect.SQLITE);

    private final SqliteCatalog catalog;

    /**
     * Loads through {@code catalog}'s writer connection.
     *
     * @param catalog the engine's catalog and connections
     */
    public SqliteBulkLoads(SqliteCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public BulkLoad open(TableDescription table) {
        String doing = "opening the bulk load of the restore into table '" + table.tableName() + "'";
        CatalogRows.Loaded loaded = new CatalogRows.Loaded(
                catalog.read(doing, ctx -> TableLoads.restoring(ctx, table, doing)));
        DataRelation base = loaded.base();
        String insertItem = RENDER.render(RENDER.insertInto(base.table()).columns(base.pk(), base.sk(), base.item())
                .values((byte[]) null, null, null));
        List<String> indexNames = new ArrayList<>();
        List<String> insertEntries = new ArrayList<>();
        for (IndexRow index : loaded.row().indexes()) {
            DataRelation r = DataRelation.fromCatalog(index.relationName());
            indexNames.add(index.name());
            insertEntries.add(RENDER.render(RENDER.insertInto(r.table())
                    .columns(r.pk(), r.sk(), r.basePk().orElseThrow(), r.baseSk().orElseThrow(), r.item())
                    .values((byte[]) null, null, null, null, null)));
        }
        return new Load(table.tableName(), insertItem, indexNames, insertEntries);
    }

    private final class Load implements BulkLoad {
        private final String tableName;
        private final String insertItem;
        private final List<String> indexNames;
        private final List<String> insertEntries;

        Load(String tableName, String insertItem, List<String> indexNames, List<String> insertEntries) {
            this.tableName = tableName;
            this.insertItem = insertItem;
            this.indexNames = indexNames;
            this.insertEntries = insertEntries;
        }

        @Override
        public void write(List<ItemWrite> items) {
            String doing = "loading " + items.size() + " items into table '" + tableName + "'";
            try {
                catalog.writeItems(doing, (ctx, kept) -> {
                    Connection c = ctx.configuration().connectionProvider().acquire();
                    insert(c, items);
                    return null;
                });
            } catch (StorageException e) {
                if (e.reason() == ErrorReason.VALIDATION) {
                    throw new StorageException(ErrorReason.VALIDATION, doing + ": two items with one primary key ("
                            + e.getMessage() + "); a restore writes each key once", e);
                }
                throw e;
            }
        }

        private void insert(Connection c, List<ItemWrite> items) throws SQLException {
            List<PreparedStatement> entries = new ArrayList<>(insertEntries.size());
            try (PreparedStatement item = c.prepareStatement(insertItem)) {
                for (String sql : insertEntries) {
                    entries.add(c.prepareStatement(sql));
                }
                for (ItemWrite write : items) {
                    ItemKeys key = ItemKeys.of(write.key());
                    String json = ItemJson.encode(write.item());
                    item.setBytes(1, key.pk());
                    item.setBytes(2, key.sk());
                    item.setString(3, json);
                    item.executeUpdate();
                    for (int i = 0; i < entries.size(); i++) {
                        Optional<Key> entry = write.indexKey(indexNames.get(i));
                        if (entry.isPresent()) {
                            ItemKeys e = ItemKeys.of(entry.get());
                            PreparedStatement s = entries.get(i);
                            s.setBytes(1, e.pk());
                            s.setBytes(2, e.sk());
                            s.setBytes(3, key.pk());
                            s.setBytes(4, key.sk());
                            s.setString(5, json);
                            s.executeUpdate();
                        }
                    }
                }
            } finally {
                for (PreparedStatement s : entries) {
                    s.close();
                }
            }
        }

        @Override
        public void finish() {
            // Every write committed its own transaction: nothing is left to make durable.
        }

        @Override
        public void close() {
            // Nothing is held between writes: each borrowed the writer connection for its own transaction.
        }
    }
}

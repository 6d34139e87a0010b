package dev.stillpoint.adapters.sqlite.engine;


import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.TableInserts;
import dev.stillpoint.sqlcatalog.TableRows;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The steps of adding a GSI on SQLite, all in the writer's one IMMEDIATE transaction (the core runs them,
 * {@link SqliteTables#inIndexBuild} opens it): no other write commits in between, and the index with
 * every entry becomes visible when it commits.
 */
final class SqliteIndexBuild implements IndexBuild {

    private final DSLContext ctx;

    SqliteIndexBuild(DSLContext ctx) {
        this.ctx = ctx;
    }

    /** The table with its new index's relation, as recorded in this transaction. */
    private record Recorded(CatalogRows.Loaded loaded, DataRelation index, TableDescription description)
            implements StorageTable {

        @Override
        public Optional<dev.stillpoint.ports.out.CatalogStamp> stamp() {
            return loaded.stamp();
        }
    }

    /** A base row: its stored key bytes and text, and the item decoded from the text. */
    private record Row(byte[] pk, byte[] sk, String json, Item item) implements BaseItem {
    }

    @Override
    public boolean atomic() {
        return true;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return CatalogRows.load(ctx, accountId, tableName).map(StorageTable.class::cast);
    }

    @Override
    public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        IndexRow index = TableInserts.recordGlobalIndex(ctx, after, indexName, loaded.row().nextOrdinal(),
                CatalogRows.relations(ctx));
        return Optional.of(new Recorded(loaded, DataRelation.fromCatalog(index.relationName()), after));
    }

    /** Pages by key: the rows after the last one read, in (pk, sk) order, so memory stays one page. */
    @Override
    public ItemScan scan(StorageTable table) {
        DataRelation base = ((Recorded) table).loaded().base();
        return new ItemScan() {
            private Row last;

            @Override
            public List<BaseItem> next(int max) {
                Condition after = last == null ? DSL.noCondition() : DSL.row(base.pk(), base.sk()).gt(last.pk(), last.sk());
                List<BaseItem> page = ctx.select(base.pk(), base.sk(), base.item())
                        .from(base.table()).where(after).orderBy(base.pk(), base.sk()).limit(max)
                        .fetch(r -> new Row(r.value1(), r.value2(), r.value3(), ItemJson.decode(r.value3())));
                if (!page.isEmpty()) {
                    last = (Row) page.get(page.size() - 1);
                }
                return page;
            }

            @Override
            public void close() {
                // Nothing held between pages: each is one query.
            }
        };
    }

    @Override
    public void write(StorageTable table, String indexName, List<BackfillEntry> entries) {
        DataRelation index = ((Recorded) table).index();
        for (BackfillEntry entry : entries) {
            ItemKeys k = ItemKeys.of(entry.indexKey());
            Row row = (Row) entry.item();
            ctx.insertInto(index.table())
                    .columns(index.pk(), index.sk(), index.basePk().orElseThrow(), index.baseSk().orElseThrow(), index.item())
                    .values(k.pk(), k.sk(), row.pk(), row.sk(), row.json())
                    .execute();
        }
    }

    @Override
    public void activate(StorageTable table, String indexName) {
        TableRows.activateIndex(ctx, table.description().tableId(), indexName);
    }
}

package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.itemjson.CatalogJson;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.sqlite.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.adapters.sqlite.storage.TableId;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Condition;
import org.jooq.Record2;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.impl.DSL;

/**
 * Table and item storage on SQLite. A unit of item work ({@link SqliteItemUnit}) is one IMMEDIATE
 * transaction that also reads the catalog row, so an item write and its index entries commit together
 * against one definition; the core's write sequence decides what is written, this class only stores it.
 * The catalog is versioned: triggers advance a table's {@code catalog_version} in the same transaction
 * as every change to its definition, whoever makes it (this engine, another process, a hand edit).
 */
public final class SqliteTables implements TableCatalog, ItemStorage, TableStatistics {

    private static final int BACKFILL_PAGE = 1000;

    private final SqliteCatalog catalog;

    public SqliteTables(SqliteCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public Optional<TableDescription> describe(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(r -> r.description());
    }

    @Override
    public List<String> tableNames(String accountId) {
        return catalog.read("listing tables", ctx -> ctx.select(SP_TABLES.TABLE_NAME).from(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId))
                .orderBy(SP_TABLES.TABLE_NAME)
                .fetch(SP_TABLES.TABLE_NAME));
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                                    UnaryOperator<TableDescription> rules) {
        return catalog.write("adding index to table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = table(ctx, accountId, tableName);
            TableDescription before = loaded.record().description();
            TableDescription after = rules.apply(before);
            GlobalSecondaryIndex gsi = after.gsi(request.index().name()).orElseThrow();
            int ordinal = loaded.indexes().stream().mapToInt(SpIndexesRecord::getOrdinal).max().orElse(-1) + 1;
            ctx.update(SP_TABLES)
                    .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(after.attributeDefinitions()))
                    .where(SP_TABLES.TABLE_ID.eq(before.tableId()))
                    .execute();
            DataRelation relation = CatalogRows.insertIndex(ctx, new TableId(before.tableId()), "GSI", ordinal,
                    gsi.name(), gsi.keySchema(), CatalogJson.projection(gsi.projection()), IndexStatus.CREATING,
                    true, after);
            backfill(ctx, loaded.base(), relation, after, gsi.name());
            // The backfill ran inside this transaction: the index is complete when it becomes visible.
            ctx.update(SP_INDEXES)
                    .set(SP_INDEXES.STATUS, IndexStatus.ACTIVE.name())
                    .set(SP_INDEXES.BACKFILLING, false)
                    .where(SP_INDEXES.TABLE_ID.eq(before.tableId()), SP_INDEXES.INDEX_NAME.eq(gsi.name()))
                    .execute();
            return CatalogRows.load(ctx, accountId, tableName).orElseThrow().record().description();
        });
    }

    /** Copies every base item that carries the index's key into the index relation, page by page. */
    private static void backfill(DSLContext ctx, DataRelation base, DataRelation index, TableDescription table,
                                 String indexName) {
        byte[] lastPk = null;
        byte[] lastSk = null;
        while (true) {
            Condition after = lastPk == null ? DSL.noCondition() : DSL.row(base.pk(), base.sk()).gt(lastPk, lastSk);
            Result<Record3<byte[], byte[], String>> page = ctx.select(base.pk(), base.sk(), base.item())
                    .from(base.table()).where(after).orderBy(base.pk(), base.sk()).limit(BACKFILL_PAGE).fetch();
            for (Record3<byte[], byte[], String> row : page) {
                Optional<Key> entry = ItemRules.entryKeyOfStoredItem(table, indexName, ItemJson.decode(row.value3()));
                if (entry.isPresent()) {
                    ItemKeys k = ItemKeys.of(entry.get());
                    ctx.insertInto(index.table())
                            .columns(index.pk(), index.sk(), index.basePk().orElseThrow(), index.baseSk().orElseThrow(),
                                    index.item())
                            .values(k.pk(), k.sk(), row.value1(), row.value2(), row.value3())
                            .execute();
                }
                lastPk = row.value1();
                lastSk = row.value2();
            }
            if (page.size() < BACKFILL_PAGE) {
                return;
            }
        }
    }

    @Override
    public <T> T inUnit(String doing, UnitWork<T> work) {
        return catalog.writeItems(doing, (ctx, kept) -> work.run(new SqliteItemUnit(doing, ctx, kept)));
    }

    @Override
    public boolean versionedCatalog() {
        return true;
    }

    @Override
    public Optional<StorageTable> table(String accountId, String tableName) {
        return catalog.read("reading the definition of table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName).map(StorageTable.class::cast));
    }

    @Override
    public Optional<Item> read(StorageTable table, Key key) {
        DataRelation base = ((CatalogRows.Loaded) table).base();
        ItemKeys k = ItemKeys.of(key);
        return catalog.read("reading an item of table '" + table.description().tableName() + "'",
                ctx -> ctx.select(base.item()).from(base.table())
                        .where(base.pk().eq(k.pk()), base.sk().eq(k.sk()))
                        .fetchOptional(base.item())
                        .map(ItemJson::decode));
    }

    @Override
    public void recount() {
        List<org.jooq.Record4<String, String, Long, Long>> tables = catalog.read("listing tables to recount",
                ctx -> ctx.select(SP_TABLES.TABLE_ID, SP_TABLES.RELATION_NAME, SP_TABLES.ITEM_COUNT, SP_TABLES.SIZE_BYTES)
                        .from(SP_TABLES).where(SP_TABLES.STATUS.eq(TableStatus.ACTIVE.name())).fetch());
        for (org.jooq.Record4<String, String, Long, Long> t : tables) {
            DataRelation base = DataRelation.fromCatalog(t.value2());
            long[] counted = catalog.read("counting the items of " + base.name(), ctx -> count(ctx, base));
            long items = counted[0];
            long bytes = counted[1];
            if (items != t.value3() || bytes != t.value4()) {
                // Written only when changed: a recount that found nothing new commits nothing.
                catalog.write("recording the counts of " + base.name(), ctx -> ctx.update(SP_TABLES)
                        .set(SP_TABLES.ITEM_COUNT, items).set(SP_TABLES.SIZE_BYTES, bytes)
                        .where(SP_TABLES.TABLE_ID.eq(t.value1())).execute());
            }
        }
    }

    /**
     * The items of {@code base} and the bytes of their stored JSON: the statistics pass's figures, and
     * a completing restore's (the same measure, so the next pass finds nothing to change).
     */
    static long[] count(DSLContext ctx, DataRelation base) {
        Record2<Integer, java.math.BigDecimal> counted = ctx.select(DSL.count(),
                        DSL.coalesce(DSL.sum(DSL.octetLength(base.item())), java.math.BigDecimal.ZERO))
                .from(base.table()).fetchOne();
        return new long[] {counted.value1(), counted.value2().longValue()};
    }

    private static CatalogRows.Loaded table(DSLContext ctx, String accountId, String tableName) {
        return CatalogRows.load(ctx, accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }
}

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
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.ItemStore;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Condition;
import org.jooq.Record2;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.impl.DSL;

/**
 * Table and item storage on SQLite. Writes run in one IMMEDIATE transaction that also reads the
 * catalog row, so an item write and its index entries commit together against one definition; the
 * core's rules decide what is written, this class only stores it.
 *
 * <p>Item writes keep the definition they last loaded per table and, inside their own transaction,
 * read only the table's {@code (table_id, catalog_version)}: triggers advance the version in the same
 * transaction as every change to the table's definition, whoever makes it (this engine, another
 * process, a hand edit), so a write whose stamp matches uses exactly the definition a fresh load
 * would give, and any other write loads it again (issue 13).
 */
public final class SqliteTables implements TableCatalog, ItemStore, TableStatistics {

    private static final int BACKFILL_PAGE = 1000;

    private final SqliteCatalog catalog;
    /** The definition item writes last loaded, by account id and table name (neither can hold NUL). */
    private final ConcurrentHashMap<String, CatalogRows.Loaded> definitions = new ConcurrentHashMap<>();

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
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        catalog.writeItems("writing an item of table '" + tableName + "'", (ctx, kept) -> {
            CatalogRows.Loaded loaded = forWrite(ctx, kept, accountId, tableName);
            store(kept, loaded, rules.apply(loaded.record().description()));
            return null;
        });
    }

    @Override
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        catalog.writeItems("writing a batch of items to " + rules.size() + " table(s)", (ctx, kept) -> {
            // Every definition read and every rule applied before the first write: a refusal writes nothing.
            Map<CatalogRows.Loaded, List<ItemChange>> batch = new LinkedHashMap<>();
            for (Map.Entry<String, Function<TableDescription, List<ItemChange>>> table : rules.entrySet()) {
                CatalogRows.Loaded loaded = forWrite(ctx, kept, accountId, table.getKey());
                batch.put(loaded, table.getValue().apply(loaded.record().description()));
            }
            for (Map.Entry<CatalogRows.Loaded, List<ItemChange>> table : batch.entrySet()) {
                for (ItemChange change : table.getValue()) {
                    if (change instanceof ItemChange.Put p) {
                        store(kept, table.getKey(), p.write());
                    } else {
                        remove(kept, table.getKey(), ItemKeys.of(change.key()));
                    }
                }
            }
            return null;
        });
        return Map.of();
    }

    /** Writes the item and exactly its index entries, the earlier version's entries removed. */
    private static void store(WriteStatements kept, CatalogRows.Loaded loaded, ItemWrite write) throws SQLException {
        ItemKeys key = ItemKeys.of(write.key());
        removeIndexEntries(kept, loaded, key);
        String json = ItemJson.encode(write.item());
        kept.upsertItem(loaded.row().getRelationName(), key, json);
        for (SpIndexesRecord index : loaded.indexes()) {
            Optional<Key> entry = write.indexKey(index.getIndexName());
            if (entry.isPresent()) {
                kept.insertEntry(index.getRelationName(), ItemKeys.of(entry.get()), key, json);
            }
        }
    }

    /** Removes the item under {@code k} and its index entries. */
    private static void remove(WriteStatements kept, CatalogRows.Loaded loaded, ItemKeys k) throws SQLException {
        removeIndexEntries(kept, loaded, k);
        kept.delete(loaded.row().getRelationName(), k);
    }

    @Override
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        return catalog.read("reading an item of table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = table(ctx, accountId, tableName);
            ItemKeys k = ItemKeys.of(rules.apply(loaded.record().description()));
            DataRelation base = loaded.base();
            return ctx.select(base.item()).from(base.table())
                    .where(base.pk().eq(k.pk()), base.sk().eq(k.sk()))
                    .fetchOptional(base.item())
                    .map(ItemJson::decode);
        });
    }

    @Override
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        catalog.writeItems("deleting an item of table '" + tableName + "'", (ctx, kept) -> {
            CatalogRows.Loaded loaded = forWrite(ctx, kept, accountId, tableName);
            remove(kept, loaded, ItemKeys.of(rules.apply(loaded.record().description())));
            return null;
        });
    }

    private static void removeIndexEntries(WriteStatements kept, CatalogRows.Loaded loaded, ItemKeys key)
            throws SQLException {
        for (SpIndexesRecord index : loaded.indexes()) {
            kept.delete(index.getRelationName(), key);
        }
    }

    @Override
    public void recount() {
        List<org.jooq.Record4<String, String, Long, Long>> tables = catalog.read("listing tables to recount",
                ctx -> ctx.select(SP_TABLES.TABLE_ID, SP_TABLES.RELATION_NAME, SP_TABLES.ITEM_COUNT, SP_TABLES.SIZE_BYTES)
                        .from(SP_TABLES).where(SP_TABLES.STATUS.eq(TableStatus.ACTIVE.name())).fetch());
        for (org.jooq.Record4<String, String, Long, Long> t : tables) {
            DataRelation base = DataRelation.fromCatalog(t.value2());
            Record2<Integer, java.math.BigDecimal> counted = catalog.read("counting the items of " + base.name(),
                    ctx -> ctx.select(DSL.count(), DSL.coalesce(DSL.sum(DSL.octetLength(base.item())), java.math.BigDecimal.ZERO))
                            .from(base.table()).fetchOne());
            long items = counted.value1();
            long bytes = counted.value2().longValue();
            if (items != t.value3() || bytes != t.value4()) {
                // Written only when changed: a recount that found nothing new commits nothing.
                catalog.write("recording the counts of " + base.name(), ctx -> ctx.update(SP_TABLES)
                        .set(SP_TABLES.ITEM_COUNT, items).set(SP_TABLES.SIZE_BYTES, bytes)
                        .where(SP_TABLES.TABLE_ID.eq(t.value1())).execute());
            }
        }
    }

    /**
     * The table's definition for an item write, inside the write's transaction: the one loaded before
     * when the row's table id and catalog version are still those it was loaded with, else loaded now.
     */
    private CatalogRows.Loaded forWrite(DSLContext ctx, WriteStatements kept, String accountId, String tableName)
            throws SQLException {
        String address = accountId + '\u0000' + tableName;
        WriteStatements.Stamp stamp = kept.stamp(accountId, tableName);
        if (stamp == null) {
            definitions.remove(address);
            throw StorageException.tableNotFound(tableName);
        }
        CatalogRows.Loaded known = definitions.get(address);
        if (known != null && known.row().getTableId().equals(stamp.tableId())
                && known.row().getCatalogVersion() == stamp.catalogVersion()) {
            return known;
        }
        CatalogRows.Loaded loaded = table(ctx, accountId, tableName);
        definitions.put(address, loaded);
        return loaded;
    }

    private static CatalogRows.Loaded table(DSLContext ctx, String accountId, String tableName) {
        return CatalogRows.load(ctx, accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }
}

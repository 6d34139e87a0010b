package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.ItemStore;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Table and item storage on PostgreSQL (the core's rules decide, this class stores). An item write runs in one unit of work that reads the
 * catalog row FOR KEY SHARE (so UpdateTable and DeleteTable, which take it FOR UPDATE, wait for the
 * write, and the write sees the index set it must maintain) and writes the base and index relations
 * together. UpdateTable adding a GSI takes the row FOR UPDATE, creates the index relation, backfills
 * it from the base items and marks it ACTIVE in the same unit, so the index is complete when its
 * row becomes visible; the data commits before the catalog.
 *
 * <p>Item writes keep the definition they last loaded per table and read only the row's
 * {@code (table_id, catalog_version)}, FOR KEY SHARE as before: triggers advance the version in the
 * same transaction as every change to the table's definition, whoever makes it (this engine, another
 * node, a hand edit), so a write whose stamp matches uses exactly the definition a fresh load would
 * give, and any other write loads it again (issue 13).
 */
public final class PostgresTables implements TableCatalog, ItemStore, TableStatistics {

    private final PostgresCatalog catalog;
    private final Transactions tx;
    /** The definition item writes last loaded, by account id and table name (neither can hold NUL). */
    private final java.util.concurrent.ConcurrentHashMap<String, CatalogRows.Loaded> definitions =
            new java.util.concurrent.ConcurrentHashMap<>();

    public PostgresTables(PostgresCatalog catalog, Transactions tx) {
        this.catalog = catalog;
        this.tx = tx;
    }

    @Override
    public Optional<TableDescription> describe(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(r -> r.description());
    }

    @Override
    public List<String> tableNames(String accountId) {
        return tx.read("listing tables", ctx -> ctx.select(SP_TABLES.TABLE_NAME).from(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId))
                .orderBy(SP_TABLES.TABLE_NAME.collate("C"))
                .fetch(SP_TABLES.TABLE_NAME));
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                                    UnaryOperator<TableDescription> rules) {
        return tx.inWork("adding an index to table '" + tableName + "'", w -> {
            CatalogRows.Loaded loaded = table(CatalogRows.load(w.catalog(), accountId, tableName,
                    CatalogRows.RowLock.UPDATE), tableName);
            TableDescription before = loaded.description();
            TableDescription after = rules.apply(before);
            GlobalSecondaryIndex gsi = after.gsi(request.index().name()).orElseThrow();
            int ordinal = loaded.indexes().stream().mapToInt(SpIndexesRecord::getOrdinal).max().orElse(-1) + 1;
            w.catalog().update(SP_TABLES)
                    .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(after.attributeDefinitions()))
                    .where(SP_TABLES.TABLE_ID.eq(before.tableId()))
                    .execute();
            RelationLayout index = CatalogRows.insertIndex(w.catalog(), w.data(), loaded.id(), "GSI", ordinal, gsi.name(),
                    gsi.keySchema(), CatalogJson.projection(gsi.projection()), IndexStatus.CREATING, true, after,
                    loaded.pkType(), loaded.skType());
            IndexBackfill.run(w.dataConnection(), loaded, index, after, gsi.name());
            // The backfill ran inside this unit: the index is complete when it becomes visible.
            w.catalog().update(SP_INDEXES)
                    .set(SP_INDEXES.STATUS, IndexStatus.ACTIVE.name())
                    .set(SP_INDEXES.BACKFILLING, false)
                    .where(SP_INDEXES.TABLE_ID.eq(before.tableId()), SP_INDEXES.INDEX_NAME.eq(gsi.name()))
                    .execute();
            return CatalogRows.load(w.catalog(), accountId, tableName, CatalogRows.RowLock.NONE).orElseThrow().description();
        });
    }

    @Override
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        tx.inWork("writing an item of table '" + tableName + "'", w -> {
            CatalogRows.Loaded loaded = forWrite(w.catalog(), accountId, tableName);
            store(w.data(), loaded, rules.apply(loaded.description()));
            return null;
        });
    }

    @Override
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        tx.inWork("writing a batch of items to " + rules.size() + " table(s)", w -> {
            // Catalog rows locked in name order, so two batches over the same tables never wait on each
            // other in a cycle; every rule applied before the first write, so a refusal writes nothing.
            Map<String, CatalogRows.Loaded> loaded = new java.util.TreeMap<>();
            for (String tableName : rules.keySet()) {
                loaded.put(tableName, null);
            }
            loaded.replaceAll((tableName, none) ->
                    forWrite(w.catalog(), accountId, tableName));
            Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
            rules.forEach((tableName, tableRules) ->
                    changes.put(tableName, tableRules.apply(loaded.get(tableName).description())));
            DSLContext data = w.data();
            changes.forEach((tableName, tableChanges) -> {
                for (ItemChange change : tableChanges) {
                    if (change instanceof ItemChange.Put p) {
                        store(data, loaded.get(tableName), p.write());
                    } else {
                        remove(data, loaded.get(tableName), ItemKeys.of(change.key()));
                    }
                }
            });
            return null;
        });
        return Map.of();
    }

    /** Upserts the item, then replaces its index entries with exactly those {@code write} names. */
    private static void store(DSLContext data, CatalogRows.Loaded loaded, ItemWrite write) {
        ItemKeys key = ItemKeys.of(write.key());
        String json = ItemJson.encode(write.item());
        Map<RelationLayout, ItemKeys> entries = new LinkedHashMap<>();
        for (SpIndexesRecord index : loaded.indexes()) {
            write.indexKey(index.getIndexName()).ifPresent(k -> entries.put(loaded.index(index), ItemKeys.of(k)));
        }
        // The base relation first, then the index relations: the order DeleteTable drops them in.
        RelationLayout base = loaded.base();
        List<Field<Object>> keyColumns = base.keyColumns();
        var insert = data.insertInto(base.relation().table()).columns(fieldsOf(keyColumns, base.item()));
        List<Object> values = new java.util.ArrayList<>(key.values());
        values.add(json);
        insert.values(values).onConflict(keyColumns).doUpdate().set(base.item(), json).execute();
        removeIndexEntries(data, loaded, key);
        for (Map.Entry<RelationLayout, ItemKeys> e : entries.entrySet()) {
            e.getKey().insertEntry(data, e.getValue().values(), key.values(), json).execute();
        }
    }

    /** Removes the item under {@code k}, base relation first, then its index entries. */
    private static void remove(DSLContext data, CatalogRows.Loaded loaded, ItemKeys k) {
        RelationLayout base = loaded.base();
        data.deleteFrom(base.relation().table()).where(k.matches(base)).execute();
        removeIndexEntries(data, loaded, k);
    }

    private static List<Field<?>> fieldsOf(List<Field<Object>> keys, Field<String> item) {
        List<Field<?>> out = new java.util.ArrayList<>(keys);
        out.add(item);
        return out;
    }

    @Override
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        String doing = "reading an item of table '" + tableName + "'";
        CatalogRows.Loaded loaded = tx.read(doing,
                ctx -> itemTable(ctx, accountId, tableName, CatalogRows.RowLock.NONE));
        ItemKeys k = ItemKeys.of(rules.apply(loaded.description()));
        RelationLayout base = loaded.base();
        try (Connection c = tx.pools().data()) {
            return Work.dsl(c).select(base.item()).from(base.relation().table())
                    .where(k.matches(base))
                    .fetchOptional(base.item())
                    .map(ItemJson::decode);
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }

    @Override
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        tx.inWork("deleting an item of table '" + tableName + "'", w -> {
            CatalogRows.Loaded loaded = forWrite(w.catalog(), accountId, tableName);
            remove(w.data(), loaded, ItemKeys.of(rules.apply(loaded.description())));
            return null;
        });
    }

    private static void removeIndexEntries(DSLContext data, CatalogRows.Loaded loaded, ItemKeys key) {
        for (SpIndexesRecord index : loaded.indexes()) {
            RelationLayout layout = loaded.index(index);
            data.deleteFrom(layout.relation().table()).where(key.matchesBase(layout)).execute();
        }
    }

    @Override
    public void recount() {
        var tables = tx.read("listing tables to recount", ctx -> ctx.select(SP_TABLES.TABLE_ID,
                        SP_TABLES.RELATION_NAME, SP_TABLES.ITEM_COUNT, SP_TABLES.SIZE_BYTES)
                .from(SP_TABLES).where(SP_TABLES.STATUS.eq(TableStatus.ACTIVE.name())).fetch());
        for (var t : tables) {
            String doing = "counting the items of " + t.value2();
            org.jooq.Record2<Integer, java.math.BigDecimal> counted;
            try (Connection c = tx.pools().data()) {
                counted = Work.dsl(c).select(DSL.count(), DSL.coalesce(DSL.sum(DSL.octetLength(
                                DSL.field(DSL.name("item"), String.class))), java.math.BigDecimal.ZERO))
                        .from(DSL.table(DSL.name(t.value2()))).fetchOne();
            } catch (SQLException | RuntimeException e) {
                throw PgFailures.map(doing, e);
            }
            long items = counted.value1();
            long bytes = counted.value2().longValue();
            if (items != t.value3() || bytes != t.value4()) {
                tx.inWork("recording the counts of " + t.value2(), w -> w.catalog().update(SP_TABLES)
                        .set(SP_TABLES.ITEM_COUNT, items).set(SP_TABLES.SIZE_BYTES, bytes)
                        .where(SP_TABLES.TABLE_ID.eq(t.value1())).execute());
            }
        }
    }

    /**
     * The table's definition for an item write, its row held FOR KEY SHARE in the write's unit of
     * work: the one loaded before when the row's table id and catalog version are still those it was
     * loaded with, else loaded now.
     */
    private CatalogRows.Loaded forWrite(DSLContext ctx, String accountId, String tableName) {
        String address = accountId + '\u0000' + tableName;
        org.jooq.Record2<String, Long> stamp = ctx.select(SP_TABLES.TABLE_ID, SP_TABLES.CATALOG_VERSION).from(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId), SP_TABLES.TABLE_NAME.eq(tableName)).forKeyShare().fetchOne();
        if (stamp == null) {
            definitions.remove(address);
            throw StorageException.tableNotFound(tableName);
        }
        CatalogRows.Loaded known = definitions.get(address);
        if (known != null && known.row().getTableId().equals(stamp.value1())
                && known.row().getCatalogVersion().equals(stamp.value2())) {
            return known;
        }
        CatalogRows.Loaded loaded = itemTable(ctx, accountId, tableName, CatalogRows.RowLock.KEY_SHARE);
        definitions.put(address, loaded);
        return loaded;
    }

    private static CatalogRows.Loaded itemTable(DSLContext ctx, String accountId, String tableName, CatalogRows.RowLock lock) {
        return table(CatalogRows.loadForItems(ctx, accountId, tableName, lock), tableName);
    }

    private static CatalogRows.Loaded table(Optional<CatalogRows.Loaded> found, String tableName) {
        return found.orElseThrow(() -> StorageException.tableNotFound(tableName));
    }
}

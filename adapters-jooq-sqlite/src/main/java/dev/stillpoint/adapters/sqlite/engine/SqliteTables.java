package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.table.CatalogJson;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.sqlite.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.adapters.sqlite.storage.TableId;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemJson;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.lifecycle.TableCreation;
import dev.stillpoint.ports.lifecycle.TableDeletion;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Condition;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.impl.DSL;

/**
 * Table and item operations on SQLite. Writes run in one IMMEDIATE transaction that also reads
 * the catalog row, so an item write and its index entries commit together against one definition.
 */
public final class SqliteTables implements TableOperations {

    private static final int BACKFILL_PAGE = 1000;

    private final SqliteCatalog catalog;
    private final TableCreation creation;
    private final TableDeletion deletion;

    public SqliteTables(SqliteCatalog catalog, TableCreation creation, TableDeletion deletion) {
        this.catalog = catalog;
        this.creation = creation;
        this.deletion = deletion;
    }

    @Override
    public TableDescription createTable(CreateTableRequest request) {
        return creation.createTable(request);
    }

    @Override
    public TableDescription describeTable(String accountId, String tableName) {
        return catalog.find(accountId, tableName)
                .orElseThrow(() -> StorageException.tableNotFound(tableName))
                .description();
    }

    @Override
    public List<String> listTables(String accountId) {
        return catalog.read("listing tables", ctx -> ctx.select(SP_TABLES.TABLE_NAME).from(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId))
                .orderBy(SP_TABLES.TABLE_NAME)
                .fetch(SP_TABLES.TABLE_NAME));
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request) {
        return catalog.write("adding index to table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = activeTable(ctx, accountId, tableName);
            TableDescription before = loaded.record().description();
            TableDescription after = before.applyCreateGsi(request);
            GlobalSecondaryIndex gsi = after.gsi(request.index().name()).orElseThrow();
            int ordinal = loaded.indexes().stream().mapToInt(SpIndexesRecord::getOrdinal).max().orElse(-1) + 1;
            ctx.update(SP_TABLES)
                    .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(after.attributeDefinitions()))
                    .where(SP_TABLES.TABLE_ID.eq(before.tableId()))
                    .execute();
            DataRelation relation = CatalogRows.insertIndex(ctx, new TableId(before.tableId()), "GSI", ordinal,
                    gsi.name(), gsi.keySchema(), CatalogJson.projection(gsi.projection()), IndexStatus.CREATING,
                    true, after);
            backfill(ctx, loaded.base(), relation, gsi.keySchema());
            // The backfill ran inside this transaction: the index is complete when it becomes visible.
            ctx.update(SP_INDEXES)
                    .set(SP_INDEXES.STATUS, IndexStatus.ACTIVE.name())
                    .set(SP_INDEXES.BACKFILLING, false)
                    .where(SP_INDEXES.TABLE_ID.eq(before.tableId()), SP_INDEXES.INDEX_NAME.eq(gsi.name()))
                    .execute();
            return CatalogRows.load(ctx, accountId, tableName).orElseThrow().record().description();
        });
    }

    /** Copies every base item that has the index's key attributes into the index relation, page by page. */
    private static void backfill(DSLContext ctx, DataRelation base, DataRelation index, KeySchema key) {
        byte[] lastPk = null;
        byte[] lastSk = null;
        while (true) {
            Condition after = lastPk == null ? DSL.noCondition() : DSL.row(base.pk(), base.sk()).gt(lastPk, lastSk);
            Result<Record3<byte[], byte[], String>> page = ctx.select(base.pk(), base.sk(), base.item())
                    .from(base.table()).where(after).orderBy(base.pk(), base.sk()).limit(BACKFILL_PAGE).fetch();
            for (Record3<byte[], byte[], String> row : page) {
                Optional<ItemKeys> entry = ItemKeys.under(key, ItemJson.decode(row.value3()));
                if (entry.isPresent()) {
                    ctx.insertInto(index.table())
                            .columns(index.pk(), index.sk(), index.basePk().orElseThrow(), index.baseSk().orElseThrow(),
                                    index.item())
                            .values(entry.get().pk(), entry.get().sk(), row.value1(), row.value2(), row.value3())
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
    public TableDescription deleteTable(String accountId, String tableName) {
        return deletion.deleteTable(accountId, tableName);
    }

    @Override
    public void putItem(String accountId, String tableName, Item item) {
        catalog.write("writing an item of table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = activeTable(ctx, accountId, tableName);
            TableDescription d = loaded.record().description();
            Item valid = ItemLimits.validateForPut(item, d.keySchema(), d.attributeDefinitions());
            ItemKeys key = ItemKeys.under(d.keySchema(), valid).orElseThrow();
            removeIndexEntries(ctx, loaded, key);
            DataRelation base = loaded.base();
            String json = ItemJson.encode(valid);
            ctx.insertInto(base.table()).columns(base.pk(), base.sk(), base.item())
                    .values(key.pk(), key.sk(), json)
                    .onConflict(base.pk(), base.sk()).doUpdate().set(base.item(), json)
                    .execute();
            for (SpIndexesRecord index : loaded.indexes()) {
                KeySchema indexKey = new KeySchema(index.getPartitionKeyName(), Optional.ofNullable(index.getSortKeyName()));
                Optional<ItemKeys> entry = ItemKeys.under(indexKey, valid);
                if (entry.isPresent()) {
                    DataRelation relation = DataRelation.fromCatalog(index.getRelationName());
                    ctx.insertInto(relation.table())
                            .columns(relation.pk(), relation.sk(), relation.basePk().orElseThrow(),
                                    relation.baseSk().orElseThrow(), relation.item())
                            .values(entry.get().pk(), entry.get().sk(), key.pk(), key.sk(), json)
                            .execute();
                }
            }
            return null;
        });
    }

    @Override
    public Optional<Item> getItem(String accountId, String tableName, Key key) {
        return catalog.read("reading an item of table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = activeTable(ctx, accountId, tableName);
            ItemKeys k = ItemKeys.of(checkedKey(loaded, key));
            DataRelation base = loaded.base();
            return ctx.select(base.item()).from(base.table())
                    .where(base.pk().eq(k.pk()), base.sk().eq(k.sk()))
                    .fetchOptional(base.item())
                    .map(ItemJson::decode);
        });
    }

    @Override
    public void deleteItem(String accountId, String tableName, Key key) {
        catalog.write("deleting an item of table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = activeTable(ctx, accountId, tableName);
            ItemKeys k = ItemKeys.of(checkedKey(loaded, key));
            removeIndexEntries(ctx, loaded, k);
            DataRelation base = loaded.base();
            ctx.deleteFrom(base.table()).where(base.pk().eq(k.pk()), base.sk().eq(k.sk())).execute();
            return null;
        });
    }

    private static void removeIndexEntries(DSLContext ctx, CatalogRows.Loaded loaded, ItemKeys key) {
        for (SpIndexesRecord index : loaded.indexes()) {
            DataRelation relation = DataRelation.fromCatalog(index.getRelationName());
            ctx.deleteFrom(relation.table())
                    .where(relation.basePk().orElseThrow().eq(key.pk()), relation.baseSk().orElseThrow().eq(key.sk()))
                    .execute();
        }
    }

    /** The key, checked against the table's schema and definitions, numbers normalised. */
    private static Key checkedKey(CatalogRows.Loaded loaded, Key key) {
        TableDescription d = loaded.record().description();
        return ItemLimits.validateKey(d.tableName(), key, d.keySchema(), d.attributeDefinitions());
    }

    private static CatalogRows.Loaded activeTable(DSLContext ctx, String accountId, String tableName) {
        CatalogRows.Loaded loaded = CatalogRows.load(ctx, accountId, tableName)
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        TableStatus status = loaded.record().description().status();
        if (status != TableStatus.ACTIVE) {
            throw new StorageException(status == TableStatus.CREATING
                    ? dev.stillpoint.domain.error.ErrorReason.TABLE_NOT_FOUND
                    : dev.stillpoint.domain.error.ErrorReason.RESOURCE_IN_USE,
                    "table '" + tableName + "' is " + status + ", not ACTIVE");
        }
        return loaded;
    }
}

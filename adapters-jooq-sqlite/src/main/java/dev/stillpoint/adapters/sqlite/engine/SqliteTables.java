package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import dev.stillpoint.sqlcatalog.StatisticsRows;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.sqlcatalog.TableRows;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Table and item storage on SQLite. A unit of item work ({@link SqliteItemUnit}) is one IMMEDIATE
 * transaction that also reads the catalog row, so an item write and its index entries commit together
 * against one definition; the core's write sequence decides what is written, this class only stores it.
 * The catalog is versioned: triggers advance a table's {@code catalog_version} in the same transaction
 * as every change to its definition, whoever makes it (this engine, another process, a hand edit).
 */
public final class SqliteTables implements TableCatalog, ItemStorage, TableStatistics {

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
        return catalog.read("listing tables", ctx -> TableRows.names(ctx, accountId));
    }

    /** One IMMEDIATE transaction: the index and every entry become visible together when it commits. */
    @Override
    public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
        return catalog.write(doing, ctx -> work.run(new SqliteIndexBuild(ctx)));
    }

    /**
     * One IMMEDIATE transaction, so no item write commits between the setting and the log's START row (or
     * the log's drop): every write before it is outside the log, every write after it under the new setting.
     */
    @Override
    public TableDescription switchChangeLog(String accountId, String tableName,
                                            Function<TableDescription, ChangeLog> decide) {
        return catalog.write("switching the change log of table '" + tableName + "'", ctx -> {
            CatalogRows.Loaded loaded = CatalogRows.load(ctx, accountId, tableName)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            TableDescription before = loaded.description();
            ChangeLog setting = decide.apply(before);
            if (setting == before.changeLog()) {
                return before;
            }
            TableRows.setChangeLog(ctx, before, setting);
            if (setting.enabled()) {
                SqliteChangeLog.start(ctx, loaded.changes());
            } else {
                // A reader of the log keeps its WAL snapshot, so the drop waits for no one.
                loaded.changes().dropIfExists(ctx).execute();
            }
            return before.withChangeLog(setting);
        });
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
    public List<TableStatistics.Counted> activeTables() {
        return catalog.read("listing tables to recount", StatisticsRows::active);
    }

    @Override
    public Counts count(TableStatistics.Counted table) {
        String relation = ((StatisticsRows.Counted) table).relationName();
        return catalog.read("counting the items of " + relation,
                ctx -> StatisticsRows.count(ctx, table, TableId.MAX_LENGTH));
    }

    @Override
    public void record(TableStatistics.Counted table, Counts counts) {
        catalog.write("recording the counts of " + ((StatisticsRows.Counted) table).relationName(),
                ctx -> {
                    StatisticsRows.record(ctx, table, counts);
                    return null;
                });
    }
}

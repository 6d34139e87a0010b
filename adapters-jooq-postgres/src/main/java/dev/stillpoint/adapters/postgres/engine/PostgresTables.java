package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import dev.stillpoint.sqlcatalog.RowLock;
import dev.stillpoint.sqlcatalog.StatisticsRows;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.sqlcatalog.TableRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * Table and item storage on PostgreSQL (the core's write sequence decides, this class stores). A unit of
 * item work is {@link PgItemUnit}'s (the catalog row FOR KEY SHARE in the unit of work that writes the
 * data); the catalog is versioned: triggers advance a table's {@code catalog_version} in the same
 * transaction as every change to its definition, whoever makes it (this engine, another node, a hand edit).
 * UpdateTable adding a GSI takes the row FOR UPDATE, creates the index relation, backfills
 * it from the base items and marks it ACTIVE in the same unit, so the index is complete when its
 * row becomes visible; the data commits before the catalog.
 */
public final class PostgresTables implements TableCatalog, ItemStorage, TableStatistics {

    private final PostgresCatalog catalog;
    private final Transactions tx;
    private final WriteStatements statements = new WriteStatements(WriteStatements.CAPACITY);

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
        return tx.read("listing tables", ctx -> TableRows.names(ctx, accountId));
    }

    /** One unit of work ({@link PgIndexBuild}): the index and every entry commit together. */
    @Override
    public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
        return tx.inTransaction(doing, w -> work.run(new PgIndexBuild(w, doing)));
    }

    /**
     * One unit of work holding the catalog row FOR UPDATE, so it waits for every item write in progress (FOR
     * KEY SHARE) and every later write reads the new setting: the writes before it are outside the log, the
     * writes after it are logged. Switching on creates the log relation where it is missing and writes its
     * START row in the data transaction, which commits first: a snapshot that sees START sees every write
     * made without the log [I4]. Switching off deletes the log's rows and keeps the relation, so no reader of
     * it is waited for.
     */
    @Override
    public TableDescription switchChangeLog(String accountId, String tableName,
                                            Function<TableDescription, ChangeLog> decide) {
        return tx.inTransaction("switching the change log of table '" + tableName + "'", w -> {
            CatalogRows.Loaded loaded = CatalogRows.load(w.catalog(), accountId, tableName, RowLock.UPDATE)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            TableDescription before = loaded.description();
            ChangeLog setting = decide.apply(before);
            if (setting == before.changeLog()) {
                return before;
            }
            TableRows.setChangeLog(w.catalog(), before, setting);
            ChangeRelation changes = loaded.changeRelation();
            DSLContext data = w.data();
            if (!setting.enabled()) {
                data.execute(changes.discard());
            } else if (DataRelations.exists(data, changes.relation().name())) {
                changes.restart().forEach(data::execute);
            } else {
                changes.create().forEach(data::execute);
                DataRelations.register(data, changes.relation().name());
            }
            return before.withChangeLog(setting);
        });
    }

    @Override
    public <T> T inUnit(String doing, UnitWork<T> work) {
        AtomicReference<PgItemUnit> last = new AtomicReference<>();
        try {
            return tx.inTransaction(doing, w -> {
                PgItemUnit unit = PgItemUnit.in(w, statements);
                last.set(unit);
                T result = work.run(unit);
                unit.send();
                return result;
            });
        } catch (StorageException e) {
            throw last.get() == null ? e : damagedOr(e, last.get().written());
        }
    }

    /** {@code failure}, or the damage it shows when it is a missing relation (42P01) ({@link MissingRelation}). */
    private StorageException damagedOr(StorageException failure, Collection<StorageTable> tables) {
        if (failure.reason() != ErrorReason.TABLE_NOT_FOUND || !PgFailures.sqlState(failure).equals("42P01")
                || tables.isEmpty()) {
            return failure;
        }
        Set<String> ids = new LinkedHashSet<>();
        List<String> names = new ArrayList<>();
        for (StorageTable table : tables) {
            ids.add(table.description().tableId());
            names.add(table.description().tableName());
        }
        return MissingRelation.rowsStillActive(tx.pools(), ids)
                ? MissingRelation.damaged(tx.pools(), ids, failure.getMessage(), names, failure) : failure;
    }

    /**
     * Shared layout only: one round trip on an auto-commit connection that requires each table's row to
     * still have its stamp (holding it FOR KEY SHARE), then the writes, committed together at its end.
     * Any statement failing (a stamp changed, a stale definition's relation gone) commits nothing and
     * answers false; a lost connection fails the write, as any write's would.
     */
    @Override
    public boolean onKnownDefinitions(String doing, List<StorageTable> tables, Consumer<ItemUnit> writes) {
        if (!tx.pools().shared()) {
            return false;
        }
        Pipeline pipeline = new Pipeline();
        for (StorageTable table : tables) {
            TableDescription d = table.description();
            pipeline.require(d.accountId(), d.tableName(), table.stamp().orElseThrow());
        }
        writes.accept(PgItemUnit.optimistic(pipeline, statements));
        try (Connection c = tx.pools().catalog()) {
            pipeline.run(c);
            return true;
        } catch (SQLException e) {
            if (e instanceof Pools.Unreachable || PgFailures.isConnectionLost(PgFailures.sqlState(e), e)) {
                throw PgFailures.map(doing, e);
            }
            return false;
        }
    }

    @Override
    public boolean versionedCatalog() {
        return true;
    }

    @Override
    public Optional<StorageTable> table(String accountId, String tableName) {
        return tx.read("reading the definition of table '" + tableName + "'",
                ctx -> CatalogRows.loadForItems(ctx, accountId, tableName, RowLock.NONE)
                        .map(StorageTable.class::cast));
    }

    @Override
    public Optional<Item> read(StorageTable table, Key key) {
        String doing = "reading an item of table '" + table.description().tableName() + "'";
        ItemKeys k = ItemKeys.of(key);
        RelationLayout base = ((CatalogRows.Loaded) table).base();
        try (Connection c = tx.pools().data()) {
            return Transaction.dsl(c).select(base.item()).from(base.relation().table())
                    .where(k.matches(base))
                    .fetchOptional(base.item())
                    .map(ItemJson::decode);
        } catch (SQLException | RuntimeException e) {
            throw damagedOr(PgFailures.map(doing, e), List.of(table));
        }
    }

    @Override
    public List<TableStatistics.Counted> activeTables() {
        return tx.read("listing tables to recount", StatisticsRows::active);
    }

    /** Counted on the data database (the catalog's own on the shared layout). */
    @Override
    public Counts count(TableStatistics.Counted table) {
        String relation = ((StatisticsRows.Counted) table).relationName();
        try (Connection c = tx.pools().data()) {
            return StatisticsRows.count(Transaction.dsl(c), table, TableId.MAX_LENGTH);
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map("counting the items of " + relation, e);
        }
    }

    @Override
    public void record(TableStatistics.Counted table, Counts counts) {
        tx.inTransaction("recording the counts of " + ((StatisticsRows.Counted) table).relationName(), w -> {
            StatisticsRows.record(w.catalog(), table, counts);
            return null;
        });
    }
}

package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_PENDING_WORK;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.RelationHold;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import dev.stillpoint.sqlcatalog.TableRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DeleteTable attempt on PostgreSQL [D5, P6, P7]: it holds the table's row FOR UPDATE in a catalog
 * transaction from its start to its commit.
 *
 * <p>On the shared layout everything happens in that one transaction: the probe of pg_locks, the drops
 * behind a savepoint (so a failed drop rolls back to it and the row can still be marked DELETING), the
 * removal of the row; the drops' locks are all taken before the removal commits. On the separate
 * layout the probe and the drops run in a data transaction opened before any drop, and the commit has
 * three steps [L2]: the catalog commits the row as DELETING (deferred, due now) instead of removing
 * it; then the data transaction commits the drops; then the row is removed. A failure or a crash at
 * any step leaves a DELETING row the poller retries, never a relation without its row: a failed data
 * commit keeps the row (and wakes the poller) rather than leaving relations behind, and DeleteTable
 * never waits past its drop budget for a retry.
 */
final class PgDropAttempt implements DropAttempt {

    private static final Logger LOG = LoggerFactory.getLogger(PgDropAttempt.class);

    private final Transaction work;
    private final CatalogRows.Loaded loaded;
    private final String doing;
    private final boolean shared;
    private final TimeSource time;
    private final WakeSignal wake;
    private Savepoint beforeDrops;
    private Progress progress = Progress.NOTHING_DROPPED;

    /**
     * How far a separate-layout attempt got: what its commit must do once the catalog has committed [L2].
     * The shared layout commits everything at once and stays at {@code NOTHING_DROPPED}.
     */
    private enum Progress {
        /** No drop executed, or the drops were rolled back: the data transaction only probed. */
        NOTHING_DROPPED,
        /** Drops executed in the data transaction; the row stays DELETING until they commit. */
        DROPPED,
        /** Drops executed and the row committed DELETING; it goes once the data transaction committed. */
        ROW_TO_REMOVE
    }

    PgDropAttempt(Transaction work, CatalogRows.Loaded loaded, String doing, boolean shared, TimeSource time,
                  WakeSignal wake) {
        this.work = work;
        this.loaded = loaded;
        this.doing = doing;
        this.shared = shared;
        this.time = time;
        this.wake = wake;
    }

    @Override
    public TableRecord record() {
        return loaded.row().record();
    }

    @Override
    public boolean probeHolders() {
        try {
            // Shared layout: this is the catalog transaction's own connection, never a second
            // pooled one (twenty concurrent DeleteTables on a ten-connection pool must all return).
            List<RelationHold> holders = LockQueries.holders(work.dataConnection(), loaded.relations());
            if (!holders.isEmpty()) {
                LOG.info("DeleteTable of '{}' deferred: {} holds {} on {}", loaded.description().tableName(),
                        holders.get(0).holder(), holders.get(0).mode(), holders.get(0).relation());
            }
            return !holders.isEmpty();
        } catch (SQLException e) {
            throw PgFailures.map(doing + ": probing pg_locks", e);
        }
    }

    @Override
    public DropResult dropRelations(Duration budget) {
        try {
            String tableId = loaded.row().tableId();
            if (restoreInProgress() && DataRestores.isCompleted(Transaction.dsl(work.dataConnection()), tableId)) {
                return DropResult.failed("the data database records the restore of table '"
                        + loaded.description().tableName() + "' (id " + tableId + ") as completed, but this catalog"
                        + " holds it in progress: the catalog is behind its data database (a copy of it made during"
                        + " the restore, or a restore of an earlier state of it, given the original's data database);"
                        + " the finished table is not dropped. Give a copy a data database of its own");
            }
            Connection catalog = work.catalogConnection();
            beforeDrops = catalog.setSavepoint("sp_drops");
            // Pending queue rows first, waiting for in-flight claims (a worker's FOR UPDATE) with no timeout.
            TransactionStatements.exec(catalog, "SET LOCAL lock_timeout = 0");
            work.catalog().deleteFrom(SP_PENDING_WORK)
                    .where(SP_PENDING_WORK.TABLE_ID.eq(loaded.row().tableId()))
                    .execute();
            // The budget is the DROPs': it starts once the queue rows are gone, however long a claim held them.
            long deadline = time.monotonicNanos() + budget.toNanos();
            Connection data = work.dataConnection();
            DSLContext ctx = Transaction.dsl(data);
            // The base relation first: a writer takes it before its index relations, so dropping an
            // index relation first would queue behind a write in progress and time the drop out.
            for (DataRelation relation : loaded.relations()) {
                long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - time.monotonicNanos());
                if (leftMillis < 1) {
                    return DropResult.lockWaitFailed("the " + budget.toMillis() + " ms drop budget was spent before "
                            + relation.name());
                }
                // One budget for the group: each DROP may wait only for what is left of it [P7].
                TransactionStatements.exec(data, "SET LOCAL lock_timeout = " + leftMillis);
                if (!shared) {
                    progress = Progress.DROPPED;
                }
                DataRelations.drop(ctx, relation);
            }
            TransactionStatements.exec(data, "SET LOCAL lock_timeout = DEFAULT");
            if (loaded.description().restoreSummary().isPresent()) {
                // Only a restored table has a record of its restore's completion.
                DataRestores.forget(ctx, tableId);
            }
            return DropResult.DROPPED;
        } catch (SQLException | RuntimeException e) {
            String state = PgFailures.sqlState(e);
            String detail = PgFailures.describe(e);
            return PgFailures.isLockWait(state) ? DropResult.lockWaitFailed(detail) : DropResult.failed(detail);
        }
    }

    private boolean restoreInProgress() {
        return loaded.description().restoreSummary().map(RestoreSummary::restoreInProgress).orElse(false);
    }

    @Override
    public void rollBackDrops() {
        try {
            if (!shared && work.hasData()) {
                work.rollbackData();
                progress = Progress.NOTHING_DROPPED;
            }
            if (beforeDrops != null) {
                work.catalogConnection().rollback(beforeDrops);
                beforeDrops = null;
            }
        } catch (SQLException e) {
            throw PgFailures.map(doing + ": rolling the drops back", e);
        }
    }

    @Override
    public void markDeleting(TableState.Deleting deleting) {
        try {
            TableRows.setStatus(work.catalog(), loaded.row().tableId(), TableStatus.DELETING, deleting.dueAt(),
                    deleting.retry());
        } catch (RuntimeException e) {
            throw PgFailures.map(doing + ": marking the table DELETING", e);
        }
    }

    // Found from outside: a catalog row whose removal the server refused reached the caller as jOOQ's exception,
    // untyped and over two lines ("SQL [delete from ...]; ERROR: ...").
    @Override
    public void removeCatalogRow() {
        try {
            if (shared) {
                removeRow(work.catalog());
                return;
            }
            // Separate layout [L2]: the catalog commits the row DELETING (due now, deferred) first; it is
            // removed only after the data transaction committed the drops, so no failure in between can
            // leave a relation without its row.
            TableRows.setStatus(work.catalog(), loaded.row().tableId(), TableStatus.DELETING, time.now(),
                    TableState.DropRetry.DEFERRED);
        } catch (RuntimeException e) {
            throw PgFailures.map(doing + ": removing the catalog row", e);
        }
        progress = Progress.ROW_TO_REMOVE;
    }

    private int removeRow(DSLContext ctx) {
        return ctx.deleteFrom(SP_TABLES).where(SP_TABLES.TABLE_ID.eq(loaded.row().tableId())).execute();
    }

    @Override
    public void commit() {
        if (shared) {
            try {
                TransactionStatements.commit(work.catalogConnection());
                return;
            } catch (SQLException e) {
                throw PgFailures.map(doing + ": committing", e);
            }
        }
        // Separate layout [L2]: catalog (the row DELETING), then data (the drops), then the row's removal.
        try {
            TransactionStatements.commit(work.catalogConnection());
        } catch (SQLException e) {
            // Nothing committed: the data transaction is rolled back by close, the relations stay with their row.
            throw PgFailures.map(doing + ": committing the catalog", e);
        }
        if (work.hasData()) {
            try {
                work.commitData();
            } catch (SQLException e) {
                work.rollbackData();
                if (progress != Progress.NOTHING_DROPPED) {
                    // DeleteTable answers DELETING, which is the truth: the row says so until the drop is done.
                    LOG.warn("{}: the data commit failed ({}); the catalog row is kept DELETING and the poller"
                            + " retries the drop", doing, PgFailures.describe(e));
                    wake.wake();
                }
                // Without drops the data transaction only probed: nothing is lost with it.
                return;
            }
        }
        if (progress == Progress.ROW_TO_REMOVE) {
            try {
                removeRow(work.catalog());
            } catch (RuntimeException e) {
                // The relations are gone and the row says DELETING: the poller's next drop removes it.
                LOG.warn("{}: the relations are dropped but removing the catalog row failed ({}); the poller"
                        + " removes it", doing, PgFailures.describe(e));
                wake.wake();
            }
        }
    }

    @Override
    public void close() {
        // Rolls back whatever was not committed and gives both connections back.
        work.close();
    }
}

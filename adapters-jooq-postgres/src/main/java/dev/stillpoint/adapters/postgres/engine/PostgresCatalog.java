package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_PENDING_WORK;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_RESTORE_RECORDS;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.RelationHold;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL catalog behind the control-plane ports, and DeleteTable's unit of work [D5, P6, P7].
 *
 * <p>A drop attempt holds the table's row FOR UPDATE in a catalog transaction from its start to its
 * commit. On the shared layout everything happens in that one transaction: the probe of pg_locks,
 * the drops behind a savepoint (so a failed drop rolls back to it and the row can still be marked
 * DELETING), the removal of the row; the drops' locks are all taken before the removal commits. On
 * the separate layout the probe and the drops run in a data transaction opened before any drop, and
 * the commit runs on a thread of this catalog, so the caller cannot stop it between the catalog's
 * commit and the data's: the row goes first, then the relations, and a data commit that fails after
 * the catalog committed is retried on fresh connections for up to {@link #DATA_COMMIT_RETRY}.
 */
public final class PostgresCatalog implements ControlPlaneStore, TableDropPort, LockProbe, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresCatalog.class);

    /** How long a data commit that failed after the catalog removal committed is retried [P7]. */
    public static final Duration DATA_COMMIT_RETRY = Duration.ofSeconds(60);

    private final Pools pools;
    private final TimeSource time;
    private final Optional<Duration> delayOverride;
    private final ExecutorService committer;

    public PostgresCatalog(Pools pools, TimeSource time, Optional<Duration> delayOverride) {
        this.pools = pools;
        this.time = time;
        this.delayOverride = delayOverride;
        String n = Integer.toHexString(System.identityHashCode(this));
        AtomicInteger threads = new AtomicInteger();
        this.committer = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stillpoint-pg-drop-commit-" + n + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    Pools pools() {
        return pools;
    }

    TimeSource time() {
        return time;
    }

    /** Work on one catalog and (lazily) one data transaction. */
    @FunctionalInterface
    interface InWork<T> {
        T apply(Work work) throws SQLException;
    }

    /** Runs {@code body} in one unit of work and commits it (data first, then catalog); rolled back on any failure. */
    <T> T inWork(String doing, InWork<T> body) {
        try (Work work = Work.begin(pools)) {
            T result = body.apply(work);
            work.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }

    /** Runs {@code body} on a catalog connection in auto-commit mode (each statement its own snapshot). */
    <T> T read(String doing, java.util.function.Function<DSLContext, T> body) {
        try (Connection c = pools.catalog()) {
            return body.apply(Work.dsl(c));
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }

    /** Writes (or replaces) the table's restore record. */
    public void writeRestoreRecord(String tableId, RestoreSummary summary) {
        inWork("recording a restore", w -> w.catalog().insertInto(SP_RESTORE_RECORDS)
                .set(SP_RESTORE_RECORDS.TABLE_ID, tableId)
                .set(SP_RESTORE_RECORDS.SOURCE_BACKUP_ARN, summary.sourceBackupArn().orElse(null))
                .set(SP_RESTORE_RECORDS.SOURCE_TABLE_ARN, summary.sourceTableArn().orElse(null))
                .set(SP_RESTORE_RECORDS.RESTORE_DATE_TIME, summary.restoreDateTime().toEpochMilli())
                .set(SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS, summary.restoreInProgress())
                .onConflict(SP_RESTORE_RECORDS.TABLE_ID).doUpdate()
                .set(SP_RESTORE_RECORDS.SOURCE_BACKUP_ARN, summary.sourceBackupArn().orElse(null))
                .set(SP_RESTORE_RECORDS.SOURCE_TABLE_ARN, summary.sourceTableArn().orElse(null))
                .set(SP_RESTORE_RECORDS.RESTORE_DATE_TIME, summary.restoreDateTime().toEpochMilli())
                .set(SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS, summary.restoreInProgress())
                .execute());
    }

    @Override
    public Duration controlPlaneDelay() {
        return delayOverride.orElseGet(() -> read("reading the control-plane delay", CatalogRows::controlPlaneDelay));
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return read("reading table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName, CatalogRows.RowLock.NONE).map(CatalogRows.Loaded::record));
    }

    @Override
    public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        String doing = "creating table '" + request.tableName() + "'";
        try {
            return inWork(doing, w -> {
                if (CatalogRows.load(w.catalog(), request.accountId(), request.tableName(), CatalogRows.RowLock.NONE).isPresent()) {
                    throw StorageException.resourceInUse("table '" + request.tableName() + "' already exists");
                }
                return CatalogRows.insertCreating(w.catalog(), w.data(), request, time.now(), activateAt);
            });
        } catch (StorageException e) {
            if (PgFailures.sqlState(e).equals("23505")) {
                throw new StorageException(ErrorReason.RESOURCE_IN_USE, "table '" + request.tableName()
                        + "' already exists (created concurrently)", e);
            }
            throw e;
        }
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        return read("activating table '" + tableName + "'", ctx -> ctx.update(SP_TABLES)
                .set(SP_TABLES.STATUS, TableStatus.ACTIVE.name())
                .setNull(SP_TABLES.STATUS_DUE_AT)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId), SP_TABLES.TABLE_NAME.eq(tableName),
                        SP_TABLES.STATUS.eq(TableStatus.CREATING.name()))
                .execute() == 1);
    }

    @Override
    public List<PendingTransition> pendingTransitions() {
        return read("listing pending transitions", ctx -> ctx.selectFrom(SP_TABLES)
                .where(SP_TABLES.STATUS.in(TableStatus.CREATING.name(), TableStatus.DELETING.name()))
                .orderBy(SP_TABLES.STATUS_DUE_AT)
                .fetch(r -> new PendingTransition(r.getAccountId(), r.getTableName(), CatalogRows.state(r))));
    }

    @Override
    public List<RelationHold> holders(String accountId, String tableName) {
        CatalogRows.Loaded loaded = read("reading table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName, CatalogRows.RowLock.NONE))
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        try (Connection data = pools.data()) {
            return LockQueries.holders(data, loaded.relations());
        } catch (SQLException e) {
            throw PgFailures.map("probing the locks on table '" + tableName + "'", e);
        }
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        String doing = "deleting table '" + tableName + "'";
        Work work;
        try {
            work = Work.begin(pools);
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        try {
            // The row FOR UPDATE: UpdateTable, other drops, item writes and (separate layout) opens wait [P2].
            CatalogRows.Loaded loaded = CatalogRows.load(work.catalog(), accountId, tableName, CatalogRows.RowLock.UPDATE)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            return new Attempt(work, loaded, doing);
        } catch (RuntimeException e) {
            work.close();
            throw PgFailures.map(doing, e);
        }
    }

    @Override
    public void close() {
        committer.shutdown();
        try {
            committer.awaitTermination(DATA_COMMIT_RETRY.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One drop attempt: see the class comment. */
    private final class Attempt implements DropAttempt {
        private final Work work;
        private final CatalogRows.Loaded loaded;
        private final String doing;
        private Savepoint beforeDrops;
        // Separate layout: drops executed in the data transaction and not rolled back.
        private boolean dropsPending;

        Attempt(Work work, CatalogRows.Loaded loaded, String doing) {
            this.work = work;
            this.loaded = loaded;
            this.doing = doing;
        }

        @Override
        public TableRecord record() {
            return loaded.record();
        }

        @Override
        public boolean probeHolders() {
            try {
                // Shared layout: this is the catalog transaction's own connection, never a second
                // pooled one (twenty concurrent DeleteTables on a ten-connection pool must all return).
                List<RelationHold> holders = LockQueries.holders(work.dataConnection(), loaded.relations());
                if (!holders.isEmpty()) {
                    LOG.info("DeleteTable of '{}' deferred: {} holds {} on {}", loaded.row().getTableName(),
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
                Connection catalog = work.catalogConnection();
                beforeDrops = catalog.setSavepoint("sp_drops");
                // Pending queue rows first, waiting for in-flight claims (a worker's FOR UPDATE) with no timeout.
                Tx.exec(catalog, "SET LOCAL lock_timeout = 0");
                work.catalog().deleteFrom(SP_PENDING_WORK)
                        .where(SP_PENDING_WORK.TABLE_ID.eq(loaded.row().getTableId()))
                        .execute();
                // The budget is the DROPs': it starts once the queue rows are gone, however long a claim held them.
                long deadline = time.monotonicNanos() + budget.toNanos();
                Connection data = work.dataConnection();
                DSLContext ctx = Work.dsl(data);
                // The base relation first: a writer takes it before its index relations, so dropping an
                // index relation first would queue behind a write in progress and time the drop out.
                for (DataRelation relation : loaded.relations()) {
                    long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - time.monotonicNanos());
                    if (leftMillis < 1) {
                        return DropResult.lockWaitFailed("the " + budget.toMillis() + " ms drop budget was spent before "
                                + relation.name());
                    }
                    // One budget for the group: each DROP may wait only for what is left of it [P7].
                    Tx.exec(data, "SET LOCAL lock_timeout = " + leftMillis);
                    dropsPending = !pools.shared();
                    relation.dropIfExists(ctx).execute();
                }
                Tx.exec(data, "SET LOCAL lock_timeout = DEFAULT");
                return DropResult.DROPPED;
            } catch (SQLException | RuntimeException e) {
                String state = PgFailures.sqlState(e);
                String detail = PgFailures.describe(e);
                return PgFailures.isLockWait(state) ? DropResult.lockWaitFailed(detail) : DropResult.failed(detail);
            }
        }

        @Override
        public void rollBackDrops() {
            try {
                if (!pools.shared() && work.hasData()) {
                    work.rollbackData();
                    dropsPending = false;
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
            CatalogRows.setStatus(work.catalog(), loaded.row().getTableId(), TableStatus.DELETING, deleting.dueAt(),
                    deleting.retry());
        }

        @Override
        public void removeCatalogRow() {
            work.catalog().deleteFrom(SP_TABLES).where(SP_TABLES.TABLE_ID.eq(loaded.row().getTableId())).execute();
        }

        @Override
        public void commit() {
            if (pools.shared()) {
                try {
                    Tx.commit(work.catalogConnection());
                    return;
                } catch (SQLException e) {
                    throw PgFailures.map(doing + ": committing", e);
                }
            }
            // Catalog, then data, on a thread the caller cannot interrupt between the two [P7].
            Future<?> done = committer.submit(this::commitCatalogThenData);
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        done.get();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        Throwable cause = e.getCause();
                        throw cause instanceof StorageException s ? s : PgFailures.map(doing + ": committing", cause);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void commitCatalogThenData() {
            try {
                Tx.commit(work.catalogConnection());
            } catch (SQLException e) {
                throw PgFailures.map(doing + ": committing the catalog", e);
            }
            if (!work.hasData()) {
                return;
            }
            try {
                work.commitData();
            } catch (SQLException e) {
                if (dropsPending) {
                    LOG.warn("{}: the data commit failed after the catalog removal committed ({}); retrying the drops "
                            + "on fresh connections for up to {} s", doing, PgFailures.describe(e), DATA_COMMIT_RETRY.toSeconds());
                    retryDrops();
                }
            }
        }

        /** Drops the relations again on fresh data connections until it works or the retry window ends. */
        private void retryDrops() {
            long until = time.monotonicNanos() + DATA_COMMIT_RETRY.toNanos();
            long backoffMillis = 100;
            while (true) {
                try (Connection c = pools.data()) {
                    Tx.begin(c);
                    try {
                        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - time.monotonicNanos()));
                        Tx.exec(c, "SET LOCAL lock_timeout = " + left);
                        for (DataRelation relation : loaded.relations()) {
                            relation.dropIfExists(Work.dsl(c)).execute();
                        }
                        Tx.commit(c);
                        LOG.info("{}: the retried drops committed", doing);
                        return;
                    } finally {
                        Tx.rollbackQuietly(c);
                    }
                } catch (SQLException | RuntimeException e) {
                    if (time.monotonicNanos() - until > 0) {
                        LOG.error("{}: the catalog row is gone but dropping {} kept failing for {} s ({}); drop them by hand",
                                doing, loaded.relations(), DATA_COMMIT_RETRY.toSeconds(), PgFailures.describe(e));
                        return;
                    }
                    try {
                        Thread.sleep(backoffMillis);
                    } catch (InterruptedException ie) {
                        // The retry must finish its window; the interrupt is kept for the thread's owner.
                        Thread.currentThread().interrupt();
                        return;
                    }
                    backoffMillis = Math.min(1000, backoffMillis * 2);
                }
            }
        }

        @Override
        public void close() {
            // Rolls back whatever was not committed and gives both connections back.
            work.close();
        }
    }
}

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
import dev.stillpoint.ports.out.WakeSignal;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
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
 * the commit has three steps [L2]: the catalog commits the row as DELETING (deferred, due now)
 * instead of removing it; then the data transaction commits the drops; then the row is removed.
 * A failure or a crash at any step leaves a DELETING row the poller retries, never a relation
 * without its row: a failed data commit keeps the row (and wakes the poller) rather than leaving
 * relations behind, and DeleteTable never waits past its drop budget for a retry.
 *
 * <p>The orphan sweep ({@link #sweepOrphans()}, run by every poller pass and so at startup) drops
 * data relations named as this adapter names them whose table id has no catalog row. It lists the
 * relations, then takes {@link #SWEEP_LOCK} exclusively on the catalog database before reading the
 * rows: every CreateTable holds it shared from the start of its catalog transaction to its end, and
 * commits its relations before its row, so a relation listed before the lock either has its row
 * visible once the lock is granted or never will.
 */
public final class PostgresCatalog implements ControlPlaneStore, TableDropPort, LockProbe, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresCatalog.class);

    /**
     * The advisory lock (catalog database) between CreateTable, which holds it shared, and the
     * orphan sweep, which takes it exclusively before reading catalog rows [L2].
     */
    static final long SWEEP_LOCK = 0x73702d6f7270686eL;

    /** How long the sweep waits for in-flight CreateTables, and each of its DROPs for its lock. */
    private static final Duration SWEEP_WAIT = Duration.ofSeconds(1);

    private static final String OWN_RELATIONS = "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname LIKE 'd\\_%'";

    private final Pools pools;
    private final TimeSource time;
    private final Optional<Duration> delayOverride;
    private final WakeSignal wake;

    public PostgresCatalog(Pools pools, TimeSource time, Optional<Duration> delayOverride) {
        this(pools, time, delayOverride, WakeSignal.NONE);
    }

    /** As above; {@code wake} is woken when a drop's data commit failed and its row was kept DELETING [L2]. */
    public PostgresCatalog(Pools pools, TimeSource time, Optional<Duration> delayOverride, WakeSignal wake) {
        this.pools = pools;
        this.time = time;
        this.delayOverride = delayOverride;
        this.wake = wake;
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
                // Shared until this catalog transaction ends: the orphan sweep waits for it [L2].
                Tx.exec(w.catalogConnection(), "SELECT pg_advisory_xact_lock_shared(" + SWEEP_LOCK + ")");
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
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        String doing = "restoring into table '" + request.tableName() + "'";
        try {
            return inWork(doing, w -> {
                // As CreateTable: the orphan sweep waits for this catalog transaction [L2].
                Tx.exec(w.catalogConnection(), "SELECT pg_advisory_xact_lock_shared(" + SWEEP_LOCK + ")");
                if (CatalogRows.load(w.catalog(), request.accountId(), request.tableName(), CatalogRows.RowLock.NONE).isPresent()) {
                    throw StorageException.resourceInUse("cannot restore into table '" + request.tableName()
                            + "': a table of this name exists");
                }
                String tableId = CatalogRows.insertCreating(w.catalog(), w.data(), request, time.now(), aliveUntil).tableId();
                CatalogRows.insertRestoreRecord(w.catalog(), tableId, summary);
                return CatalogRows.load(w.catalog(), request.accountId(), request.tableName(), CatalogRows.RowLock.NONE)
                        .orElseThrow().description();
            });
        } catch (StorageException e) {
            if (PgFailures.sqlState(e).equals("23505")) {
                throw new StorageException(ErrorReason.RESOURCE_IN_USE, "cannot restore into table '"
                        + request.tableName() + "': a table of this name was created concurrently", e);
            }
            throw e;
        }
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        return read("renewing the restore of table '" + tableName + "'", ctx -> ctx.update(SP_TABLES)
                .set(SP_TABLES.STATUS_DUE_AT, aliveUntil.toEpochMilli())
                .where(restoring(accountId, tableName, tableId))
                .execute() == 1);
    }

    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        return inWork("completing the restore of table '" + tableName + "'", w -> {
            if (w.catalog().update(SP_TABLES)
                    .set(SP_TABLES.STATUS, TableStatus.ACTIVE.name())
                    .setNull(SP_TABLES.STATUS_DUE_AT)
                    .where(restoring(accountId, tableName, tableId))
                    .execute() != 1) {
                return false;
            }
            w.catalog().update(SP_RESTORE_RECORDS).set(SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS, false)
                    .where(SP_RESTORE_RECORDS.TABLE_ID.eq(tableId)).execute();
            return true;
        });
    }

    private static org.jooq.Condition restoring(String accountId, String tableName, String tableId) {
        return SP_TABLES.ACCOUNT_ID.eq(accountId).and(SP_TABLES.TABLE_NAME.eq(tableName))
                .and(SP_TABLES.TABLE_ID.eq(tableId)).and(SP_TABLES.STATUS.eq(TableStatus.CREATING.name()))
                .and(CatalogRows.restoreInProgress());
    }

    @Override
    public List<PendingTransition> restoringTables() {
        return pendingTransitions().stream().filter(p -> p.state() instanceof TableState.Restoring).toList();
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        return read("activating table '" + tableName + "'", ctx -> ctx.update(SP_TABLES)
                .set(SP_TABLES.STATUS, TableStatus.ACTIVE.name())
                .setNull(SP_TABLES.STATUS_DUE_AT)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId), SP_TABLES.TABLE_NAME.eq(tableName),
                        SP_TABLES.STATUS.eq(TableStatus.CREATING.name()), DSL.not(CatalogRows.restoreInProgress()))
                .execute() == 1);
    }

    @Override
    public List<PendingTransition> pendingTransitions() {
        // One statement, so a row and whether its restore is in progress are read at one instant.
        org.jooq.Field<Boolean> restoring = DSL.field(CatalogRows.restoreInProgress());
        return read("listing pending transitions", ctx -> ctx.select(SP_TABLES.asterisk(), restoring).from(SP_TABLES)
                .where(SP_TABLES.STATUS.in(TableStatus.CREATING.name(), TableStatus.DELETING.name()))
                .orderBy(SP_TABLES.STATUS_DUE_AT)
                .fetch(r -> new PendingTransition(r.get(SP_TABLES.ACCOUNT_ID), r.get(SP_TABLES.TABLE_NAME),
                        CatalogRows.state(r.into(SP_TABLES), Boolean.TRUE.equals(r.get(restoring))))));
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

    /**
     * Drops every data relation named as this adapter names them ({@code d_<id>...}) whose table id
     * has no catalog row; returns their names [L2]. A relation it cannot drop now (held, or a view
     * depends on it) is logged and left to the next pass. Any other name is never touched.
     */
    public List<String> sweepOrphans() {
        String doing = "sweeping data relations without a catalog row";
        List<String> dropped = new ArrayList<>();
        try (Connection catalogConnection = pools.catalog()) {
            Connection data = pools.shared() ? catalogConnection : pools.data();
            try {
                Map<String, String> candidates = new LinkedHashMap<>();
                try (Statement st = data.createStatement(); ResultSet rs = st.executeQuery(OWN_RELATIONS)) {
                    while (rs.next()) {
                        String name = rs.getString(1);
                        DataRelation.tableIdOf(name).ifPresent(id -> candidates.put(name, id));
                    }
                }
                if (candidates.isEmpty()) {
                    return dropped;
                }
                Set<String> known = new HashSet<>();
                Tx.begin(catalogConnection);
                try {
                    Tx.exec(catalogConnection, "SET LOCAL lock_timeout = " + SWEEP_WAIT.toMillis());
                    // Waits for every CreateTable in flight: its relations may be committed before its row.
                    Tx.exec(catalogConnection, "SELECT pg_advisory_xact_lock(" + SWEEP_LOCK + ")");
                    known.addAll(Work.dsl(catalogConnection).select(SP_TABLES.TABLE_ID).from(SP_TABLES)
                            .where(SP_TABLES.TABLE_ID.in(new HashSet<>(candidates.values())))
                            .fetch(SP_TABLES.TABLE_ID));
                    Tx.commit(catalogConnection);
                } finally {
                    Tx.rollbackQuietly(catalogConnection);
                }
                for (Map.Entry<String, String> e : candidates.entrySet()) {
                    if (!known.contains(e.getValue()) && dropOrphan(data, e.getKey())) {
                        dropped.add(e.getKey());
                    }
                }
            } finally {
                if (data != catalogConnection) {
                    Tx.release(data);
                }
            }
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
        if (!dropped.isEmpty()) {
            LOG.warn("dropped data relations without a catalog row: {}", dropped);
        }
        return dropped;
    }

    private static boolean dropOrphan(Connection data, String name) {
        try {
            Tx.begin(data);
            try {
                Tx.exec(data, "SET LOCAL lock_timeout = " + SWEEP_WAIT.toMillis());
                DataRelation.fromCatalog(name).dropIfExists(Work.dsl(data)).execute();
                Tx.commit(data);
                return true;
            } finally {
                Tx.rollbackQuietly(data);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("could not drop data relation {} (it has no catalog row); the next pass retries: {}", name,
                    PgFailures.describe(e));
            return false;
        }
    }

    @Override
    public void close() {
        // Nothing of its own to stop: every unit of work runs on its caller's thread.
    }

    /** One drop attempt: see the class comment. */
    private final class Attempt implements DropAttempt {
        private final Work work;
        private final CatalogRows.Loaded loaded;
        private final String doing;
        private Savepoint beforeDrops;
        // Separate layout: drops executed in the data transaction and not rolled back.
        private boolean dropsPending;
        // Separate layout: the row is to go once the data transaction committed [L2].
        private boolean rowRemovalPending;

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
            if (pools.shared()) {
                removeRow(work.catalog());
                return;
            }
            // Separate layout [L2]: the catalog commits the row DELETING (due now, deferred) first; it is
            // removed only after the data transaction committed the drops, so no failure in between can
            // leave a relation without its row.
            CatalogRows.setStatus(work.catalog(), loaded.row().getTableId(), TableStatus.DELETING, time.now(),
                    TableState.DropRetry.DEFERRED);
            rowRemovalPending = true;
        }

        private int removeRow(DSLContext ctx) {
            return ctx.deleteFrom(SP_TABLES).where(SP_TABLES.TABLE_ID.eq(loaded.row().getTableId())).execute();
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
            // Separate layout [L2]: catalog (the row DELETING), then data (the drops), then the row's removal.
            try {
                Tx.commit(work.catalogConnection());
            } catch (SQLException e) {
                // Nothing committed: the data transaction is rolled back by close, the relations stay with their row.
                throw PgFailures.map(doing + ": committing the catalog", e);
            }
            if (work.hasData()) {
                try {
                    work.commitData();
                } catch (SQLException e) {
                    work.rollbackData();
                    if (dropsPending) {
                        // DeleteTable answers DELETING, which is the truth: the row says so until the drop is done.
                        LOG.warn("{}: the data commit failed ({}); the catalog row is kept DELETING and the poller"
                                + " retries the drop", doing, PgFailures.describe(e));
                        wake.wake();
                    }
                    // Without drops the data transaction only probed: nothing is lost with it.
                    return;
                }
            }
            if (rowRemovalPending) {
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
}

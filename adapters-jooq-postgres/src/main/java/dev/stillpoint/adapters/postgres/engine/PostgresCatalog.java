package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import dev.stillpoint.sqlcatalog.RestoreRecords;
import dev.stillpoint.sqlcatalog.RowLock;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.sqlcatalog.TableInserts;
import dev.stillpoint.sqlcatalog.TableRows;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL catalog behind the control-plane ports, and the start of DeleteTable's unit of work
 * [D5, P6, P7]: {@link #beginDrop} locks the table's row and hands the attempt to {@link PgDropAttempt}.
 * Every statement runs through {@link Transactions}; the orphan sweep is {@link OrphanSweep}, the lock
 * probe {@link PgLockProbe}.
 */
public final class PostgresCatalog implements ControlPlaneStore, TableDropPort {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresCatalog.class);

    private final Transactions tx;
    private final TimeSource time;
    private final Optional<Duration> delayOverride;
    private final WakeSignal wake;

    /** {@code wake} is woken when a drop's data commit failed and its row was kept DELETING [L2]. */
    public PostgresCatalog(Transactions tx, TimeSource time, Optional<Duration> delayOverride, WakeSignal wake) {
        this.tx = tx;
        this.time = time;
        this.delayOverride = delayOverride;
        this.wake = wake;
    }

    /** Writes (or replaces) the table's restore record. */
    public void writeRestoreRecord(String tableId, RestoreSummary summary) {
        tx.inTransaction("recording a restore", w -> {
            RestoreRecords.write(w.catalog(), tableId, summary);
            return null;
        });
    }

    @Override
    public Duration controlPlaneDelay() {
        return delayOverride.orElseGet(() -> tx.read("reading the control-plane delay", TableRows::controlPlaneDelay));
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return tx.read("reading table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName, RowLock.NONE).map(l -> l.row().record()));
    }

    @Override
    public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        return insertNew("creating table '" + request.tableName() + "'",
                "table '" + request.tableName() + "' already exists (created concurrently)",
                (w, id) -> TableInserts.create(w.catalog(), id, request, time.now(), activateAt,
                        CatalogRows.relations(w.data())));
    }

    @Override
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        return insertNew("restoring into table '" + request.tableName() + "'", "cannot restore into table '"
                        + request.tableName() + "': a table of this name was created concurrently",
                (w, id) -> TableInserts.restore(w.catalog(), id, request, summary, time.now(), aliveUntil,
                        CatalogRows.relations(w.data())));
    }

    /** A new table's rows and relations, made in {@code work} under the id given. */
    @FunctionalInterface
    private interface NewTable {
        TableDescription insert(Transaction work, TableId id) throws SQLException;
    }

    /**
     * Records the creation first, committed before any relation exists, then makes the table and forgets the
     * record in the transaction that commits its row: the orphan sweep drops only relations of creations this
     * catalog began and never finished [L2, O1]. A name taken concurrently is RESOURCE_IN_USE saying {@code inUse}.
     */
    private TableDescription insertNew(String doing, String inUse, NewTable table) {
        TableId id = TableId.random();
        tx.read(doing, ctx -> {
            PendingCreations.begin(ctx, id.value(), time.now().toEpochMilli());
            return null;
        });
        try {
            return tx.inTransaction(doing, w -> {
                // Shared until this catalog transaction ends: the orphan sweep waits for it [L2].
                OrphanSweep.holdOffSweep(w.catalogConnection());
                TableDescription made = table.insert(w, id);
                PendingCreations.forget(w.catalog(), List.of(id.value()));
                return made;
            });
        } catch (StorageException e) {
            // A record left by a failure before the data commit is forgotten by the sweep once stale.
            if (PgFailures.sqlState(e).equals("23505")) {
                throw new StorageException(ErrorReason.RESOURCE_IN_USE, inUse, e);
            }
            throw e;
        }
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        return tx.read("renewing the restore of table '" + tableName + "'",
                ctx -> RestoreRecords.renew(ctx, accountId, tableName, tableId, aliveUntil));
    }

    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        String doing = "completing the restore of table '" + tableName + "'";
        boolean completed = tx.inTransaction(doing, w -> RestoreRecords.complete(
                w.catalog(), w.data(), accountId, tableName, tableId, TableId.MAX_LENGTH));
        if (completed) {
            recordCompletedInData(doing, tableId);
        }
        return completed;
    }

    /**
     * Tells the data database the restore completed, after the catalog committed it: recorded before, a failed
     * catalog commit would leave a restore in progress that no drop may remove. A failure here costs only that
     * protection against a copy of the catalog (DataRestores), so it is logged, never thrown: the restore is done.
     */
    private void recordCompletedInData(String doing, String tableId) {
        try {
            tx.inTransaction(doing + " in the data database", w -> {
                DataRestores.completed(w.data(), tableId, time.now().toEpochMilli());
                return null;
            });
        } catch (StorageException e) {
            LOG.warn("{}: the data database has no record that it completed: {}", doing, e.getMessage());
        }
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        return tx.read("activating table '" + tableName + "'", ctx -> TableRows.markActive(ctx, accountId, tableName));
    }

    @Override
    public List<PendingTransition> pendingTransitions() {
        return tx.read("listing pending transitions", TableRows::pendingTransitions);
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        String doing = "deleting table '" + tableName + "'";
        Transaction work;
        try {
            work = Transaction.begin(tx.pools());
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        try {
            // The row FOR UPDATE: UpdateTable, other drops, item writes and (separate layout) opens wait [P2].
            CatalogRows.Loaded loaded = CatalogRows.load(work.catalog(), accountId, tableName, RowLock.UPDATE)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            return new PgDropAttempt(work, loaded, doing, tx.pools().shared(), time, wake);
        } catch (RuntimeException e) {
            work.close();
            throw PgFailures.map(doing, e);
        }
    }
}

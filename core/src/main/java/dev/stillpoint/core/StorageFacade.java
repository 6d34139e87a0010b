package dev.stillpoint.core;

import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StorageCapabilities;

/**
 * What the facade of a backend with a control plane (SQLite, PostgreSQL, MongoDB) hands out, written once: the
 * driving ports, permits and diagnostics its {@link StorageCore} assembled, its capabilities, the change
 * log's trim on demand, the restore record, and closing the core before the backend's connections. A
 * backend's facade extends it with its opening (files, pools, migrations) and its own extras.
 */
public abstract class StorageFacade extends CoreFacade<StorageCore> {

    /**
     * A facade over {@code core}, which the subclass's constructor assembles (and starts unless read-only).
     *
     * @param capabilities     what the backend offers, the facade's static {@code CAPABILITIES}
     * @param core             the core, not yet assembled
     * @param closeConnections closes the backend's connections, after the core has stopped
     */
    protected StorageFacade(StorageCapabilities capabilities, StorageCore core, Runnable closeConnections) {
        super(capabilities, core, closeConnections);
    }

    /**
     * Whether this storage was opened for reading only [L4]: every write is refused, and no control-plane
     * work runs.
     *
     * @return true for a read-only opening
     */
    public abstract boolean readOnly();

    /**
     * Writes the restore record of the table as just described (the storage of {@link #recordRestore}): its
     * catalog id says which instance, its name is what a miss names.
     *
     * @param table   the table, as described
     * @param summary the summary its description carries from now on
     */
    protected abstract void writeRestoreRecord(TableDescription table, RestoreSummary summary);

    /** Consistent table snapshots [S1-S7], each holding one of {@link #snapshotPermits()}. */
    @Override
    public final SnapshotEngine snapshots() {
        return core().snapshots();
    }

    /**
     * The permits open snapshots hold, shared with backups [D7, Q2].
     *
     * @return the ledger
     */
    public final PermitLedger snapshotPermits() {
        return core().permits();
    }

    /**
     * The poller's state, for diagnostics.
     *
     * @return IDLE, ACTIVE while a drop is deferred, and so on
     */
    public final PollerState pollerState() {
        return core().pollerState();
    }

    /**
     * Poller passes run so far, for diagnostics.
     *
     * @return the number of passes since the opening
     */
    public final long pollerPasses() {
        return core().pollerPasses();
    }

    /**
     * Runs the change log trim now, as every control-plane pass does [I4]: each table's log gets a checkpoint
     * at this storage's clock and is cut at its newest checkpoint older than the retention
     * ({@code withChangeLogRetention} of the config). One trim runs at a time, a pass's or this one.
     *
     * @throws StorageException UNSUPPORTED on a backend that keeps no change log, naming it [I1], and on a
     *     read-only opening, which writes nothing [L4]
     */
    public final void trimChangeLogs() {
        capabilities().requireChangeLog();
        if (readOnly()) {
            throw StorageException.unsupported(capabilities().backend(), "a read-only opening trims no change log [L4]");
        }
        core().trimChangeLogs();
    }

    /** Records that the table was restored, as a restore does; its description then carries the summary [S2]. */
    @Override
    public final void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        writeRestoreRecord(core().tables().describeTable(accountId, tableName), summary);
    }
}

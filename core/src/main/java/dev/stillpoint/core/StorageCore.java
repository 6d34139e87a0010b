package dev.stillpoint.core;

import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import dev.stillpoint.ports.out.ChangeLogTrim;
import dev.stillpoint.ports.out.SnapshotReadPort;
import dev.stillpoint.ports.out.WakeSignal;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Objects;

/**
 * The one composition root of a backend with a control plane (SQLite, PostgreSQL, MongoDB): from the
 * adapter's driven ports and the shared {@link CoreSettings} it assembles the table service, the
 * restores, the permit ledger and the leased snapshot engine, so a facade only opens its database,
 * builds its ports and asks this for the rest. Three steps, as {@link ControlPlane}'s:
 * construction (the poller exists and {@link #wakeSignal()} can be handed to a port that wakes it),
 * {@link #assemble} once, then {@link #start()} (never for a read-only opening).
 * Cassandra has no control plane [C2]: {@link InlineStorageCore} assembles its services.
 */
public final class StorageCore implements CoreServices {

    /**
     * One for the process, not one per opening: a Cleaner's thread ends only once the Cleaner itself is
     * collected, so one per core left a thread running for each closed storage until a full GC (found from
     * outside: 300 openings and closes left 300 "Cleaner-N" threads).
     */
    private static final Cleaner ABANDONED_STREAMS = Cleaner.create(r -> new Thread(r, "stillpoint-abandoned-snapshots"));

    private final CoreSettings settings;
    private final ControlPlane controlPlane;
    // Assigned by assemble(), before start().
    private TableOperations tables;
    private PermitLedger permits;
    private LeasedSnapshotEngine snapshots;
    // Assigned by changeLogTrim(), for a backend that keeps change logs.
    private PassChore trim;

    /**
     * A core whose control-plane poller runs on a daemon thread named {@code pollerThreadName}.
     *
     * @param settings         the shared settings
     * @param pollerThreadName the poller thread's name
     */
    public StorageCore(CoreSettings settings, String pollerThreadName) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.controlPlane = new ControlPlane(settings.time(), settings.pollerSchedule(), pollerThreadName,
                settings.events());
    }

    /**
     * What a port that must wake the poller itself is given (a catalog whose drop kept its row DELETING).
     *
     * @return the control plane's wake signal
     */
    public WakeSignal wakeSignal() {
        return controlPlane;
    }

    /**
     * Wires the table service and restores over {@code ports}, and a snapshot engine over {@code reads}
     * holding permits from {@code permitPool} [D7]. Called once, before {@link #start()}.
     *
     * @param ports      the backend's driven ports
     * @param reads      the backend's snapshot reads
     * @param permitPool the permits open snapshots hold
     * @throws IllegalStateException when already assembled
     */
    public synchronized void assemble(ControlPlanePorts ports, SnapshotReadPort reads, PermitPool permitPool) {
        if (tables != null) {
            throw new IllegalStateException("this core is already assembled");
        }
        tables = controlPlane.wire(ports);
        permits = new PermitLedger(permitPool);
        snapshots = new LeasedSnapshotEngine(reads, permits, controlPlane, settings.pageBudget(), settings.observer(),
                ABANDONED_STREAMS, settings.snapshotIdleLimit(), settings.events());
    }

    /**
     * The change log's trim as a chore of every control-plane pass [I4]: it reads this core's clock and
     * retention, and runs one trim at a time (a pass's and an embedder's {@code run()} queue), so a trim
     * that read the clock has finished before the next one reads it.
     *
     * @param trims the backend's trim of its change logs
     * @return the chore, for the ports' list
     */
    public synchronized PassChore changeLogTrim(ChangeLogTrim trims) {
        Object oneAtATime = new Object();
        trim = new PassChore("change log trim", () -> {
            synchronized (oneAtATime) {
                trims.trim(settings.time().now(), settings.changeLogRetention());
            }
        });
        return trim;
    }

    /**
     * Runs the change log trim now, as every control-plane pass does [I4]; one trim runs at a time, a pass's or
     * this one.
     *
     * @throws IllegalStateException when this core was given no trim ({@link #changeLogTrim})
     */
    public void trimChangeLogs() {
        PassChore chore;
        synchronized (this) {
            chore = trim;
        }
        if (chore == null) {
            throw new IllegalStateException("this core was given no change log trim");
        }
        chore.work().run();
    }

    /**
     * Starts the poller; its first pass is startup recovery.
     *
     * @throws IllegalStateException when not assembled yet
     */
    public void start() {
        controlPlane.start();
    }

    /**
     * The table and item operations, every request rule checked by the core.
     *
     * @return the table service
     */
    @Override
    public TableOperations tables() {
        return assembled(tables);
    }

    /**
     * Restores into new tables [E4, E5]; dead restores are removed by the poller's passes.
     *
     * @return the restores
     */
    @Override
    public TableRestores restores() {
        return controlPlane.restores();
    }

    /**
     * Consistent table snapshots over the backend's reads.
     *
     * @return the snapshot engine
     */
    public LeasedSnapshotEngine snapshots() {
        return assembled(snapshots);
    }

    /**
     * The permits open snapshots hold [D7].
     *
     * @return the ledger
     */
    public PermitLedger permits() {
        return assembled(permits);
    }

    /**
     * The poller's state, for diagnostics.
     *
     * @return IDLE, ACTIVE while a drop is deferred, and so on
     */
    public PollerState pollerState() {
        return controlPlane.pollerState();
    }

    /**
     * Poller passes run so far, for diagnostics.
     *
     * @return the number of passes since start
     */
    public long pollerPasses() {
        return controlPlane.pollerPasses();
    }

    @Override
    public boolean awaitStartupRecovery(Duration timeout) throws InterruptedException {
        return controlPlane.awaitStartupRecovery(timeout);
    }

    /** Stops the poller, then ends every open snapshot stream. */
    @Override
    public void close() {
        controlPlane.close();
        if (snapshots != null) {
            snapshots.close();
        }
    }

    private <T> T assembled(T part) {
        if (part == null) {
            throw new IllegalStateException("this core is not assembled yet");
        }
        return part;
    }
}

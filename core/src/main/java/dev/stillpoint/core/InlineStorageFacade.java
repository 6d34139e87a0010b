package dev.stillpoint.core;

import dev.stillpoint.core.snapshot.UnsupportedSnapshots;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import java.util.Objects;

/**
 * What the facade of a backend without a control plane (Cassandra) [C2] hands out, written once, as
 * {@link StorageFacade} is for the others: the driving ports its {@link InlineStorageCore} assembled, its
 * capabilities, a snapshot engine that refuses every open as those capabilities say [C1], and closing
 * the core before the backend's connections. A backend's facade extends it with its opening.
 */
public abstract class InlineStorageFacade implements Storage {

    private final StorageCapabilities capabilities;
    private final InlineStorageCore core;
    private final SnapshotEngine snapshots;
    private final Runnable closeConnections;

    /**
     * A facade over {@code core}, which the subclass's constructor assembles and starts.
     *
     * @param capabilities     what the backend offers, the facade's static {@code CAPABILITIES}; no snapshots
     * @param core             the core, not yet assembled
     * @param closeConnections closes the backend's connections, after the core has stopped
     * @throws IllegalArgumentException when the capabilities offer snapshots, which no inline core serves
     */
    protected InlineStorageFacade(StorageCapabilities capabilities, InlineStorageCore core, Runnable closeConnections) {
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
        this.core = Objects.requireNonNull(core, "core");
        this.closeConnections = Objects.requireNonNull(closeConnections, "closeConnections");
        // The refusal comes before any table is resolved, and takes no permit, session or read [C1].
        this.snapshots = new UnsupportedSnapshots(capabilities.backend(), capabilities.snapshotRefusal()
                .orElseThrow(() -> new IllegalArgumentException(capabilities.backend() + " offers snapshots, which"
                        + " a backend without a control plane does not serve")));
    }

    /**
     * The core this facade's constructor assembles.
     *
     * @return the core
     */
    protected final InlineStorageCore core() {
        return core;
    }

    /** Create, describe, list, add a GSI, delete; put, get, delete items. */
    @Override
    public final TableOperations tables() {
        return core.tables();
    }

    /**
     * Restores into new tables [E4, E5]: the table stays CREATING until its restore completes; a restore
     * killed with its process is removed by a later poller pass of any engine on this catalog, once
     * {@code restoreIdleLimit} has passed since its last sign of life.
     */
    @Override
    public final TableRestores restores() {
        return core.restores();
    }

    @Override
    public final StorageCapabilities capabilities() {
        return capabilities;
    }

    /** Refuses every snapshot: Unsupported, naming the backend and why, before resolving the table [C1]. */
    @Override
    public final SnapshotEngine snapshots() {
        return snapshots;
    }

    /** Stops the poller, then closes the backend's connections. */
    @Override
    public final void close() {
        core.close();
        closeConnections.run();
    }
}

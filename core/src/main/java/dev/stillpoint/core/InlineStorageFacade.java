package dev.stillpoint.core;

import dev.stillpoint.core.snapshot.UnsupportedSnapshots;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StorageCapabilities;

/**
 * The facade of a backend without a control plane (Cassandra) [C2], over its {@link InlineStorageCore}:
 * what {@link CoreFacade} hands out, and a snapshot engine that refuses every open as the capabilities
 * say [C1]. A backend's facade extends it with its opening.
 */
public abstract class InlineStorageFacade extends CoreFacade<InlineStorageCore> {

    private final SnapshotEngine snapshots;

    /**
     * A facade over {@code core}, which the subclass's constructor assembles and starts.
     *
     * @param capabilities     what the backend offers, the facade's static {@code CAPABILITIES}; no snapshots
     * @param core             the core, not yet assembled
     * @param closeConnections closes the backend's connections, after the core has stopped
     * @throws IllegalArgumentException when the capabilities offer snapshots, which no inline core serves
     */
    protected InlineStorageFacade(StorageCapabilities capabilities, InlineStorageCore core, Runnable closeConnections) {
        super(capabilities, core, closeConnections);
        // The refusal comes before any table is resolved, and takes no permit, session or read [C1].
        this.snapshots = new UnsupportedSnapshots(capabilities.backend(), capabilities.snapshotRefusal()
                .orElseThrow(() -> new IllegalArgumentException(capabilities.backend() + " offers snapshots, which"
                        + " a backend without a control plane does not serve")));
    }

    /** Refuses every snapshot: Unsupported, naming the backend and why, before resolving the table [C1]. */
    @Override
    public final SnapshotEngine snapshots() {
        return snapshots;
    }
}

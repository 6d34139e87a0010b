package dev.stillpoint.core;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import java.time.Duration;
import java.util.Objects;

/**
 * What every backend's facade hands out, written once: the driving ports its core assembled, its
 * capabilities, and closing the core before the backend's connections. {@link StorageFacade} adds what a
 * core with a control plane offers (snapshots, permits, the change log's trim), {@link InlineStorageFacade}
 * the refusing snapshot engine of a backend without one.
 *
 * @param <C> the kind of core
 */
public abstract class CoreFacade<C extends CoreServices> implements Storage {

    private final StorageCapabilities capabilities;
    private final C core;
    private final Runnable closeConnections;

    /**
     * A facade over {@code core}, which the subclass's constructor assembles.
     *
     * @param capabilities     what the backend offers, the facade's static {@code CAPABILITIES}
     * @param core             the core, not yet assembled
     * @param closeConnections closes the backend's connections, after the core has stopped
     */
    protected CoreFacade(StorageCapabilities capabilities, C core, Runnable closeConnections) {
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
        this.core = Objects.requireNonNull(core, "core");
        this.closeConnections = Objects.requireNonNull(closeConnections, "closeConnections");
    }

    /**
     * The core this facade's constructor assembles.
     *
     * @return the core
     */
    protected final C core() {
        return core;
    }

    /** Create, describe, list, add a GSI, delete; put, get, delete items. */
    @Override
    public final TableOperations tables() {
        return core.tables();
    }

    /**
     * Restores into new tables [E4, E5]; refused UNSUPPORTED on a read-only opening, where the backend has one. A
     * restore killed with its process is removed by a later poller pass of any read-write opening of this
     * catalog, once {@code restoreIdleLimit} has passed since its last sign of life.
     */
    @Override
    public final TableRestores restores() {
        return core.restores();
    }

    @Override
    public final StorageCapabilities capabilities() {
        return capabilities;
    }

    /** Waits for the core's poller's first pass; at once for an opening without a poller (read-only). */
    @Override
    public final boolean awaitStartupRecovery(Duration timeout) throws InterruptedException {
        return core.awaitStartupRecovery(timeout);
    }

    /** Stops the core (its poller, and every open snapshot stream), then closes the backend's connections. */
    @Override
    public final void close() {
        core.close();
        closeConnections.run();
    }
}

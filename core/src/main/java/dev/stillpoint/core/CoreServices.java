package dev.stillpoint.core;

import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;

/**
 * The driving ports a core assembles for a backend, whether it has a control plane ({@link StorageCore})
 * or not ({@link InlineStorageCore}), and how it stops: what {@link CoreFacade} hands out.
 */
public interface CoreServices extends AutoCloseable {

    /**
     * The table and item operations, every request rule checked by the core.
     *
     * @return the table service
     */
    TableOperations tables();

    /**
     * Restores into new tables [E4, E5].
     *
     * @return the restores
     */
    TableRestores restores();

    /** Stops what the core runs (its poller, its snapshot streams); the backend's connections stay open. */
    @Override
    void close();
}

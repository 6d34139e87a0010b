package dev.stillpoint.core;

import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import java.time.Duration;

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

    /**
     * Waits, at most {@code timeout}, until the poller's first pass (startup recovery: dead restores removed,
     * deferred drops finished, the statistics counted) has finished; at once when no poller was started.
     *
     * @param timeout the longest wait
     * @return whether it finished within the timeout
     * @throws InterruptedException when the waiting thread is interrupted
     */
    boolean awaitStartupRecovery(Duration timeout) throws InterruptedException;

    /** Stops what the core runs (its poller, its snapshot streams); the backend's connections stay open. */
    @Override
    void close();
}

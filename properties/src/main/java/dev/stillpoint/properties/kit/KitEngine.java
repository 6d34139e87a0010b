package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableOperations;

/**
 * One engine of the adapter under test, over a live database, as the kit drives it: the table
 * operations, the snapshot engine, and (for K3) a way to give a table a restore record.
 */
public interface KitEngine extends AutoCloseable {

    TableOperations tables();

    SnapshotEngine snapshots();

    /**
     * Writes a restore record for the table the way a restore would, so its description carries a
     * restore summary [K3]. Adapters without restore records throw UnsupportedOperationException.
     */
    void recordRestore(String accountId, String tableName, dev.stillpoint.domain.table.RestoreSummary summary);

    /** Stops the engine's poller and releases its connections; the database itself may stay. */
    @Override
    void close();
}

package dev.stillpoint.ports.in;

import java.time.Duration;

/**
 * Stillpoint opened on one database: what every backend's facade ({@code SqliteStorage},
 * {@code PostgresStorage}, {@code MongoStorage}, {@code CassandraStorage}) offers an embedding
 * application, under the same names. Open it with the backend's {@code open(config)}; close it to stop
 * its control-plane work, end the snapshot engine's timer and give back every connection.
 */
public interface Storage extends AutoCloseable {

    /**
     * Create, describe, list, add a GSI, delete; put, get, delete items.
     *
     * @return the core's one implementation of the table operations, over this backend
     */
    TableOperations tables();

    /**
     * Consistent table snapshots [S1-S7]; a backend without a read that fixes an instant answers every
     * open Unsupported [C1].
     *
     * @return the snapshot engine of this backend
     */
    SnapshotEngine snapshots();

    /**
     * What this backend offers beyond what every backend does (snapshots [C1]); the same answer as the
     * facade's static {@code CAPABILITIES}, which a caller can ask before opening anything.
     *
     * @return this backend's capabilities
     */
    StorageCapabilities capabilities();

    /**
     * A table's changes between two snapshot markers [I1, I2]; a backend that keeps no change log answers
     * every read UNSUPPORTED, naming itself [C1].
     *
     * @return this backend's change log reads
     */
    default ChangeLogReads changeLog() {
        return (accountId, tableName, sinceMarker, sink) -> {
            capabilities().requireChangeLog();
            throw dev.stillpoint.domain.error.StorageException.unsupported(capabilities().backend(),
                    "table '" + tableName + "': this backend keeps no change log, so it has no changes since '"
                            + sinceMarker + "' to give [I1]");
        };
    }

    /**
     * Restoring a backup into a new table [E4, E5].
     *
     * @return the core's restores over this backend
     */
    TableRestores restores();

    /**
     * Writes (or replaces) the restore record of an existing table, so its description carries
     * {@code summary} [S2]. Applying an incremental export to a table restored from a full export moves the
     * table's recorded origin forward (its SourceBackupArn names the snapshot marker the table now stands at,
     * its RestoreDateTime the window's end) [I3]. A backend whose storage has no such record answers
     * UNSUPPORTED.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param summary the summary the table's description carries from now on
     */
    default void recordRestore(String accountId, String tableName, dev.stillpoint.domain.table.RestoreSummary summary) {
        throw dev.stillpoint.domain.error.StorageException.unsupported(capabilities().backend(),
                "table '" + tableName + "': this backend does not rewrite a table's restore record [I3]");
    }

    /**
     * Waits, at most {@code timeout}, until this opening's startup recovery (its poller's first pass: dead
     * restores removed [E5], deferred drops finished [D8]) has finished, so a short-lived opening (one CLI
     * command, a job) acts on what recovery left instead of racing it. An opening that runs no poller
     * (read-only, or a storage without control-plane work) has nothing to wait for.
     *
     * @param timeout the longest wait
     * @return whether recovery finished (or none runs) within the timeout
     * @throws InterruptedException when the waiting thread is interrupted
     */
    default boolean awaitStartupRecovery(Duration timeout) throws InterruptedException {
        return true;
    }

    /**
     * Stops the control-plane poller (if the backend runs one), the snapshot engine's idle timer, and
     * closes every connection. Snapshot streams still open are released. Never throws a checked exception.
     */
    @Override
    void close();
}

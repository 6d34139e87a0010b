package dev.stillpoint.ports.out;

/**
 * What an adapter supplies for snapshots: a read window on one table. The shared engine adds
 * permits, the lease machine, pauses, release and reclaim.
 */
public interface SnapshotReadPort {

    /**
     * Begins a read window on the table; may refuse (TableNotFound, Unsupported, ...).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param observer test hooks called at the pause points; {@link ReadObserver#NONE} in production
     * @return the open read window
     */
    ReadWindow begin(String accountId, String tableName, ReadObserver observer);
}

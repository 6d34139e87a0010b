package dev.stillpoint.ports.out;

/**
 * What an adapter supplies for snapshots: a read window on one table. The shared engine adds
 * permits, the lease machine, pauses, release and reclaim.
 */
public interface SnapshotReadPort {

    /** Begins a read window on the table; may refuse (TableNotFound, Unsupported, ...). */
    ReadWindow begin(String accountId, String tableName, ReadObserver observer);
}

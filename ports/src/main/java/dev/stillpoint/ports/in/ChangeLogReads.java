package dev.stillpoint.ports.in;

/**
 * Reads a table's change log between two snapshot markers [I2]: the start is a marker an earlier snapshot
 * reported ({@link SnapshotInfo#marker()}); the end is a new snapshot, taken by the read itself.
 *
 * <p>Errors, all {@code StorageException}: TableNotFound for a missing table; ResourceInUse for a table
 * that is not ACTIVE; UNSUPPORTED on a backend that keeps no change log [C1]; VALIDATION for a table that
 * keeps none, and for a marker that cannot name a start of this table's log [I4], the message naming the
 * marker and why: not a marker of this backend's form, of another table (or database, or deployment),
 * older than the log (taken before it began, or trimmed away), or later than the new snapshot.
 */
public interface ChangeLogReads {

    /**
     * The changes committed after the snapshot {@code sinceMarker} names and visible in a new snapshot,
     * one per key changed (the key's last change in the window wins).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param sinceMarker the marker of the snapshot the window starts after
     * @return the window's changes and both markers
     */
    TableChanges changesSince(String accountId, String tableName, String sinceMarker);
}

package dev.stillpoint.ports.in;

import java.util.ArrayList;
import java.util.List;

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
     * Streams the changes committed after the snapshot {@code sinceMarker} names and visible in a new
     * snapshot into {@code sink}, one per key changed (the key's last change in the window wins), holding a
     * page of them at a time: the window first, then each change, inside the read's transaction, which ends
     * on every path before this returns.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param sinceMarker the marker of the snapshot the window starts after
     * @param sink told the window, then each change; its exceptions end the read
     */
    void streamChanges(String accountId, String tableName, String sinceMarker, ChangeSink sink);

    /**
     * The window's changes in a list: {@link #streamChanges} collected, for windows known to be small (a
     * test's, a caller's who checks the count first).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param sinceMarker the marker of the snapshot the window starts after
     * @return the window's changes and both markers
     */
    default TableChanges changesSince(String accountId, String tableName, String sinceMarker) {
        List<LoggedChange> changes = new ArrayList<>();
        ChangeWindow[] window = new ChangeWindow[1];
        streamChanges(accountId, tableName, sinceMarker, new ChangeSink() {
            @Override
            public void begin(ChangeWindow w) {
                window[0] = w;
            }

            @Override
            public void change(LoggedChange change) {
                changes.add(change);
            }
        });
        return new TableChanges(window[0].description(), window[0].since(), window[0].until(), changes);
    }
}

package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;

/**
 * Which tables a window of changes may be read from [I1, I2]: the same answer from every backend that keeps
 * change logs, given once the backend has read the table's definition in the window's snapshot.
 */
public final class ChangeWindows {

    private ChangeWindows() {
    }

    /**
     * Refuses a window of a table that is not ACTIVE (RESOURCE_IN_USE) or keeps no change log (VALIDATION, naming
     * the marker that was to start it).
     *
     * @param table       the table's definition as the window's snapshot reads it
     * @param sinceMarker the marker that was to start the window
     * @return {@code table}
     */
    public static TableDescription requireReadable(TableDescription table, String sinceMarker) {
        if (table.status() != TableStatus.ACTIVE) {
            throw StorageException.resourceInUse("table '" + table.tableName() + "' is " + table.status()
                    + "; its changes are read only when it is ACTIVE");
        }
        if (!table.changeLog().enabled()) {
            throw StorageException.validation("table '" + table.tableName() + "' keeps no change log, so marker '"
                    + sinceMarker + "' starts no window of it [I1]");
        }
        return table;
    }
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Objects;

/**
 * The changes of a table in the window (since, until] [I2]: applying them, in any order, to the table as
 * the snapshot {@code since} saw it gives the table as the snapshot {@code until} sees it, item for item.
 *
 * @param description the table's description in the snapshot {@code until}, counts cleared as a snapshot's [S2]
 * @param since the marker the window starts after (the caller's)
 * @param until the marker of the new snapshot the window ends at
 * @param changes one change per key changed in the window, in key order where the backend orders keys
 */
public record TableChanges(TableDescription description, SnapshotInfo since, SnapshotInfo until,
                           List<LoggedChange> changes) {

    /**
     * Checks every part is present; copies the list.
     *
     * @param description the table's description at {@code until}
     * @param since the window's start marker
     * @param until the window's end marker
     * @param changes the window's changes
     */
    public TableChanges {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        changes = List.copyOf(changes);
    }
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.TableDescription;
import java.util.Objects;

/**
 * A window (since, until] of a table's change log [I2], as a streamed read opens it: what the changes are
 * of, before any of them is read.
 *
 * @param description the table's description in the snapshot {@code until}, counts cleared as a snapshot's [S2]
 * @param since the marker the window starts after (the caller's)
 * @param until the marker of the new snapshot the window ends at
 */
public record ChangeWindow(TableDescription description, SnapshotInfo since, SnapshotInfo until) {

    /**
     * Checks every part is present.
     *
     * @param description the table's description at {@code until}
     * @param since the window's start marker
     * @param until the window's end marker
     */
    public ChangeWindow {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
    }
}

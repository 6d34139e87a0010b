package dev.stillpoint.properties.kit;

import net.jqwik.api.Example;

/**
 * "DeleteTable leaves no relation" [D5, P7, P9, C2] on every drop path, checked against the
 * backend's own catalog. Every snapshot-capable adapter runs it through {@link SnapshotConformanceKit};
 * a backend without snapshots implements this interface alone (its held path is then skipped).
 */
public interface DeleteTableConformanceKit {

    /** The adapter under test. Called once per check; may return a new fixture each time. */
    ConformanceFixture fixture();

    // D5: no holder, no delay: the drop happens inside DeleteTable.
    @Example
    default void d5_synchronousDeleteTableLeavesNoRelation() {
        drop(DropChecks.Path.SYNCHRONOUS);
    }

    // D5, D8: a control-plane delay of a second: DELETING, dropped by the poller once due.
    @Example
    default void d5_scheduledDeleteTableLeavesNoRelation() {
        drop(DropChecks.Path.SCHEDULED);
    }

    // D5, D8, P6: a snapshot holds the table during DeleteTable; a backend that defers retries the drop
    // in a poller pass once the snapshot is closed.
    @Example
    default void d5_heldDeleteTableLeavesNoRelation() {
        drop(DropChecks.Path.HELD);
    }

    // D8: "A deferred drop stays active across a restart": the table left DELETING by one engine is
    // dropped by the next one's startup recovery.
    @Example
    default void d8_deleteTableAcrossARestartLeavesNoRelation() {
        drop(DropChecks.Path.AFTER_RESTART);
    }

    private void drop(DropChecks.Path path) {
        KitLock.run("DeleteTable " + path, () -> DropChecks.leavesNoRelation(fixture(), path));
    }
}

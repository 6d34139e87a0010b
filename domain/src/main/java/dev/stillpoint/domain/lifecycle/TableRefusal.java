package dev.stillpoint.domain.lifecycle;

import dev.stillpoint.domain.error.ErrorReason;

/** The named reasons a table event is refused in a state [D4]; each maps to the closed error set. */
public enum TableRefusal {
    /** CreateTable of a name that has a row in any state, DELETING included. */
    NAME_IN_USE(ErrorReason.RESOURCE_IN_USE),
    /** Any event for a table with no row, or one that is gone. */
    NO_SUCH_TABLE(ErrorReason.TABLE_NOT_FOUND),
    /** DeleteTable of a table still CREATING. */
    STILL_CREATING(ErrorReason.RESOURCE_IN_USE),
    /** An activation check for a table that is not CREATING. */
    NOT_CREATING(ErrorReason.INTERNAL),
    /** A poller pass for a table that is not DELETING. */
    NOT_DELETING(ErrorReason.INTERNAL),
    /** A probe answer with no probe outstanding. */
    NO_PROBE_PENDING(ErrorReason.INTERNAL),
    /** A drop outcome with no drop in progress. */
    NO_DROP_PENDING(ErrorReason.INTERNAL),
    /** A caller giving up on a drop it is not waiting for (the poller's, or none). */
    NO_CALLER_WAITING(ErrorReason.INTERNAL),
    /** A restore's event for a table that is not being restored (completed, removed, or never one) [E4, E5]. */
    NOT_RESTORING(ErrorReason.TABLE_NOT_FOUND),
    /** An activation check for a table a restore holds: only the restore completes it [E4]. */
    HELD_BY_RESTORE(ErrorReason.INTERNAL),
    /** A second DeleteTable while another one holds the table between its probe and its commit. */
    DELETE_IN_PROGRESS(ErrorReason.RESOURCE_IN_USE);

    private final ErrorReason reason;

    TableRefusal(ErrorReason reason) {
        this.reason = reason;
    }

    /**
     * The error a caller sees when this refusal reaches the API.
     *
     * @return the error reason
     */
    public ErrorReason reason() {
        return reason;
    }
}

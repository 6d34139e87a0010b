package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;

/**
 * How dropping a table's relations ended.
 *
 * @param outcome dropped, a lock-wait failure, or another failure
 * @param detail  the server's own code and message for a failure, empty when dropped
 */
public record DropResult(DropOutcome outcome, String detail) {

    public static final DropResult DROPPED = new DropResult(DropOutcome.DROPPED, "");

    public static DropResult lockWaitFailed(String detail) {
        return new DropResult(DropOutcome.LOCK_WAIT_FAILED, detail);
    }

    public static DropResult failed(String detail) {
        return new DropResult(DropOutcome.OTHER_FAILURE, detail);
    }
}

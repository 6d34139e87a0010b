package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;

/**
 * How dropping a table's relations ended.
 *
 * @param outcome dropped, a lock-wait failure, or another failure
 * @param detail  the server's own code and message for a failure, empty when dropped
 */
public record DropResult(DropOutcome outcome, String detail) {

    /** Every relation was dropped. */
    public static final DropResult DROPPED = new DropResult(DropOutcome.DROPPED, "");

    /**
     * A lock wait failed within the budget; the poller retries soon [P7].
     *
     * @param detail the server's own code and message
     * @return the result
     */
    public static DropResult lockWaitFailed(String detail) {
        return new DropResult(DropOutcome.LOCK_WAIT_FAILED, detail);
    }

    /**
     * The drop failed for another reason.
     *
     * @param detail the server's own code and message
     * @return the result
     */
    public static DropResult failed(String detail) {
        return new DropResult(DropOutcome.OTHER_FAILURE, detail);
    }
}

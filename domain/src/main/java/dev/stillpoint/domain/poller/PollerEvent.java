package dev.stillpoint.domain.poller;

import java.time.Instant;
import java.util.Optional;

/** What happens to the poller [D8]; time arrives inside the event. */
public sealed interface PollerEvent {

    /**
     * The event's kind, so transitions can switch exhaustively over it.
     *
     * @return the kind of this event
     */
    Kind kind();

    /** The kinds of poller event. */
    enum Kind {
        /** The engine started. */
        STARTED,
        /** A wake signal arrived. */
        WOKEN,
        /** The wait's timer ran out. */
        TIMER_FIRED,
        /** A pass finished. */
        PASS_FINISHED,
        /** The engine is shutting down. */
        STOP_REQUESTED
    }

    /** The engine started: run startup recovery. */
    record Started(Instant now) implements PollerEvent {
        public Kind kind() { return Kind.STARTED; }
    }

    /** A wake signal: a reader released, a table was created or a delete was deferred. */
    record Woken(Instant now) implements PollerEvent {
        public Kind kind() { return Kind.WOKEN; }
    }

    /** The wait's timer ran out (or the wait ended early with nothing to do). */
    record TimerFired(Instant now) implements PollerEvent {
        public Kind kind() { return Kind.TIMER_FIRED; }
    }

    /**
     * A pass finished.
     *
     * @param deferredDrops drops deferred by a holder or a lock-wait failure (other failures do not count)
     * @param nextDue       the earliest due transition still waiting, if any
     */
    record PassFinished(Instant now, int deferredDrops, Optional<Instant> nextDue) implements PollerEvent {
        public Kind kind() { return Kind.PASS_FINISHED; }
    }

    /** The engine is shutting down. */
    record StopRequested() implements PollerEvent {
        public Kind kind() { return Kind.STOP_REQUESTED; }
    }
}

package dev.stillpoint.ports.out;

import java.time.Instant;

/** The clock the machinery reads, so the pure machines receive time as a value and tests may steer it. */
public interface TimeSource {

    /**
     * Wall-clock now, for due times stored in the catalog.
     *
     * @return the current instant
     */
    Instant now();

    /**
     * A monotonic reading in nanoseconds, for budgets and deadlines.
     *
     * @return nanoseconds from an arbitrary origin, never going back
     */
    long monotonicNanos();

    /** The system clock. */
    TimeSource SYSTEM = new TimeSource() {
        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public long monotonicNanos() {
            return System.nanoTime();
        }
    };
}

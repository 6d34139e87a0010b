package dev.stillpoint.core.snapshot;

import dev.stillpoint.ports.out.TimeSource;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When a snapshot last fetched a page, and whether a fetch is in flight [L1]. A single stream has its
 * own; the segments of one segmented snapshot share one [B2], so the idle limit sees them as one
 * reader: a segment left unread while another is being read is not idle, and when the limit passes
 * with no segment fetching, every segment expires.
 */
final class ActivityClock {

    private final TimeSource time;
    private volatile long lastNanos;
    private final AtomicInteger fetching = new AtomicInteger();

    ActivityClock(TimeSource time) {
        this.time = time;
        this.lastNanos = time.monotonicNanos();
    }

    long now() {
        return time.monotonicNanos();
    }

    /** Restarts the clock: a stream is handed out, or a fetch ended. */
    void touch() {
        lastNanos = time.monotonicNanos();
    }

    long lastNanos() {
        return lastNanos;
    }

    void fetchStarted() {
        fetching.incrementAndGet();
    }

    /** Ends a fetch and restarts the clock (the order a first look reads them in, reversed). */
    void fetchEnded() {
        lastNanos = time.monotonicNanos();
        fetching.decrementAndGet();
    }

    boolean fetchInFlight() {
        return fetching.get() > 0;
    }
}

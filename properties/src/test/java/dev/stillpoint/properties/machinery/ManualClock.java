package dev.stillpoint.properties.machinery;

import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;

/** A clock that moves only when a test moves it: wall time and monotonic time advance together. */
final class ManualClock implements TimeSource {

    private volatile Instant now;
    private volatile long nanos;

    ManualClock(Instant start) {
        this.now = start;
    }

    synchronized void advance(Duration by) {
        now = now.plus(by);
        nanos += by.toNanos();
    }

    @Override
    public Instant now() {
        return now;
    }

    @Override
    public long monotonicNanos() {
        return nanos;
    }
}

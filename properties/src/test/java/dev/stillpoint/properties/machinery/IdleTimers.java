package dev.stillpoint.properties.machinery;

import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;

/** What the idle-limit tests [L1] see of the snapshot engine's idle timer: its threads and its clock readings. */
final class IdleTimers {

    private static final String THREAD_PREFIX = "stillpoint-snapshot-idle-";

    private IdleTimers() {
    }

    /** The idle timer threads alive now, of every engine in this JVM. */
    static Set<Thread> threads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(THREAD_PREFIX) && t.isAlive())
                .collect(Collectors.toSet());
    }

    /** A monotonic clock the test moves (from a far origin, as System.nanoTime's may be); counts the idle timer's readings. */
    static final class Readings implements TimeSource {
        final Semaphore timerReadings = new Semaphore(0);
        private volatile long nanos = 7_000_000_000_000L;

        synchronized void advance(Duration by) {
            nanos += by.toNanos();
        }

        /** An observer that holds an open before its items for {@code by}: this clock moves that far there. */
        dev.stillpoint.ports.out.ReadObserver slowOpen(Duration by) {
            return new dev.stillpoint.ports.out.ReadObserver() {
                @Override
                public void atPause(dev.stillpoint.ports.out.PausePoint point) {
                    if (point == dev.stillpoint.ports.out.PausePoint.BEFORE_ITEMS) {
                        advance(by);
                    }
                }
            };
        }

        @Override
        public long monotonicNanos() {
            if (Thread.currentThread().getName().startsWith(THREAD_PREFIX)) {
                timerReadings.release();
            }
            return nanos;
        }

        @Override
        public Instant now() {
            return Instant.EPOCH.plusNanos(nanos);
        }
    }
}

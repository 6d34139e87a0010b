package dev.stillpoint.properties.kit;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one lock every kit check holds for its whole run [K4], so no two checks in one test JVM
 * interleave their engines, pauses and counters. A check waiting for it gives up after
 * {@link #MAX_WAIT}, naming the holder (thread and check) and how long it has held the lock.
 * Static on purpose: it is process-wide, and it lives in the test artifact only [K8].
 */
public final class KitLock {

    /** How long a check waits for the lock before it fails. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(600);

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static volatile Holder holder;

    private KitLock() {
    }

    /** Who holds the lock. */
    private record Holder(String check, String thread, Instant since) {
        @Override
        public String toString() {
            return "check '" + check + "' on thread '" + thread + "' since " + since;
        }
    }

    /** A held lock; closing it releases it. */
    public static final class Held implements AutoCloseable {
        private final Holder previous;
        private boolean closed;

        private Held(Holder previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            holder = previous;
            LOCK.unlock();
        }
    }

    /** Takes the lock for {@code check}, waiting at most {@link #MAX_WAIT}. */
    public static Held hold(String check) {
        return hold(check, MAX_WAIT);
    }

    /** Takes the lock for {@code check}, waiting at most {@code maxWait}. */
    public static Held hold(String check, Duration maxWait) {
        long started = System.nanoTime();
        boolean locked;
        try {
            locked = LOCK.tryLock(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("[K4] check '" + check + "' was interrupted waiting for the kit lock held by "
                    + describeHolder(), e);
        }
        if (!locked) {
            throw new AssertionError("[K4] check '" + check + "' on thread '" + Thread.currentThread().getName()
                    + "' gave up after waiting " + Duration.ofNanos(System.nanoTime() - started).toSeconds()
                    + " s for the kit lock, held by " + describeHolder());
        }
        Holder previous = holder;
        holder = new Holder(check, Thread.currentThread().getName(), Instant.now());
        return new Held(previous);
    }

    /** Runs {@code body} holding the lock for {@code check}. */
    public static void run(String check, Runnable body) {
        Held held = hold(check);
        try {
            body.run();
        } finally {
            held.close();
        }
    }

    /** The current holder, for messages. */
    public static String describeHolder() {
        Holder h = holder;
        return h == null ? "nobody (it was just released)" : h.toString();
    }
}

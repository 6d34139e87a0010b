package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The kit's test hooks [K8]: a round-trip counter and one-shot pauses, handed to an engine as its
 * {@link ReadObserver}. They live in the test artifact only; production engines get
 * {@link ReadObserver#NONE}. One instance per engine, no static state: a check owns its hooks.
 *
 * <p>A pause is armed for one open: the first open that reaches the armed point takes it and holds
 * there until the test releases it; every other open, and every other point, passes straight through.
 */
public final class KitHooks implements ReadObserver {

    /** The longest an armed pause holds an open when the test never releases it. */
    public static final Duration MAX_HOLD = Duration.ofSeconds(600);

    private final AtomicLong roundTrips = new AtomicLong();
    private final java.util.List<java.util.List<Integer>> pages = new java.util.ArrayList<>();
    // The gate no open has taken yet; null when nothing is armed.
    private final AtomicReference<PauseGate> armed = new AtomicReference<>();
    // The gate armed last, taken or not, until it is released: only one armed open at a time.
    private final AtomicReference<PauseGate> current = new AtomicReference<>();

    /** Round trips that fetched items, counted since this engine started. */
    public long roundTrips() {
        return roundTrips.get();
    }

    @Override
    public void roundTrip() {
        roundTrips.incrementAndGet();
    }

    /** The item text lengths of every page fetched so far, page by page, in fetch order [S7]. */
    public java.util.List<java.util.List<Integer>> pages() {
        synchronized (pages) {
            return java.util.List.copyOf(pages);
        }
    }

    @Override
    public void pageRead(dev.stillpoint.ports.out.Page page) {
        java.util.List<Integer> sizes = page.items().stream().map(i -> i.json().length()).toList();
        synchronized (pages) {
            pages.add(sizes);
        }
    }

    /**
     * Arms a pause at {@code point} for the next open that reaches it. Refused while an earlier
     * gate is armed or holding an open: a check holds one open at a time.
     */
    public PauseGate arm(PausePoint point) {
        PauseGate gate = new PauseGate(point);
        PauseGate previous = current.get();
        if (previous != null && !previous.released()) {
            throw new IllegalStateException("a pause is already armed at " + previous.point()
                    + "; release it before arming " + point);
        }
        if (!current.compareAndSet(previous, gate)) {
            throw new IllegalStateException("a pause was armed concurrently with " + point);
        }
        armed.set(gate);
        return gate;
    }

    @Override
    public void atPause(PausePoint point) {
        PauseGate gate = armed.get();
        if (gate == null || gate.point() != point || !armed.compareAndSet(gate, null)) {
            return;
        }
        gate.hold();
    }

    /** One armed pause: the test awaits the open reaching it, then releases it. */
    public static final class PauseGate {
        private final PausePoint point;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile String takenBy;

        private PauseGate(PausePoint point) {
            this.point = point;
        }

        public PausePoint point() {
            return point;
        }

        /** Whether an open reached the pause within {@code timeout}. */
        public boolean awaitReached(Duration timeout) throws InterruptedException {
            return reached.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** Whether an open has reached the pause. */
        public boolean reached() {
            return reached.getCount() == 0;
        }

        /** The thread whose open took the pause, or null before one did. */
        public String takenBy() {
            return takenBy;
        }

        /** Lets the held open go on (or lets the next one pass, if none reached it yet). */
        public void release() {
            release.countDown();
        }

        boolean released() {
            return release.getCount() == 0;
        }

        private void hold() {
            takenBy = Thread.currentThread().getName();
            reached.countDown();
            try {
                if (!release.await(MAX_HOLD.toNanos(), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("the pause at " + point + " was not released within "
                            + MAX_HOLD.toSeconds() + " s; the check holding it never let the open go on");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the open held at " + point + " was interrupted", e);
            }
        }

        @Override
        public String toString() {
            return "PauseGate[" + point + (reached() ? ", reached by " + takenBy : ", not reached")
                    + (released() ? ", released" : "") + "]";
        }
    }
}

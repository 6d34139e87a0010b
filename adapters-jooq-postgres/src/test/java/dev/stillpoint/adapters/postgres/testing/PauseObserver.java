package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Holds the first open that reaches {@code point} until released; counts item round trips. */
public final class PauseObserver implements ReadObserver {

    private final PausePoint point;
    private final AtomicBoolean taken = new AtomicBoolean();
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicLong roundTrips = new AtomicLong();

    public PauseObserver(PausePoint point) {
        this.point = point;
    }

    @Override
    public void atPause(PausePoint at) {
        if (at != point || !taken.compareAndSet(false, true)) {
            return;
        }
        reached.countDown();
        try {
            if (!release.await(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("pause at " + point + " never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at the pause", e);
        }
    }

    @Override
    public void roundTrip() {
        roundTrips.incrementAndGet();
    }

    public long roundTrips() {
        return roundTrips.get();
    }

    public boolean awaitReached(Duration d) throws InterruptedException {
        return reached.await(d.toNanos(), TimeUnit.NANOSECONDS);
    }

    public void release() {
        release.countDown();
    }
}

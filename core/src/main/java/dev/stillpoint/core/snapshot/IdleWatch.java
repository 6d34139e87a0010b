package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.snapshot.IdleLimit;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's idle timer [L1]: one daemon thread that looks at each streaming lease when its idle
 * limit may have passed, and releases it (IDLE_EXPIRED) when no page was fetched for the whole
 * limit. One task per lease is queued at a time; a lease that fetched meanwhile is looked at again
 * when its new limit may have passed. The thread exists only while a lease is watched (it ends
 * after a few idle seconds) and {@link #close()} stops it for good.
 */
final class IdleWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IdleWatch.class);
    private static final AtomicInteger ENGINES = new AtomicInteger();

    private final IdleLimit limit;
    private final ScheduledThreadPoolExecutor timer;

    IdleWatch(IdleLimit limit) {
        this.limit = limit;
        String name = "stillpoint-snapshot-idle-" + ENGINES.incrementAndGet();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        timer.setKeepAliveTime(5, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        // No look is ever cancelled, and close() is shutdownNow, which drops the queued looks: no policy for either.
    }

    IdleLimit limit() {
        return limit;
    }

    /** Starts watching a lease that was just handed out (its idle clock starts now). */
    void watch(Lease lease) {
        schedule(lease, limit.duration());
    }

    private void schedule(Lease lease, Duration delay) {
        try {
            timer.schedule(() -> look(lease), Math.max(1, delay.toNanos()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // The engine is closing: the Cleaner and the pools' close remain.
            LOG.debug("idle watch closed; lease of table '{}' is no longer watched", lease.table());
        }
    }

    private void look(Lease lease) {
        try {
            lease.expireIfIdle().ifPresent(again -> schedule(lease, again));
        } catch (RuntimeException e) {
            // A failure to end one transaction must not stop the timer for the others.
            LOG.warn("idle watch of a snapshot of table '{}' failed: {}", lease.table(), e.toString());
        }
    }

    /** Stops the timer thread; leases still open keep their Cleaner. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}

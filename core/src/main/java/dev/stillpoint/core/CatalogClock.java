package dev.stillpoint.core;

import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The time by the catalog database's clock: a process's own clock corrected by its offset to the database
 * server's clock, measured once when a backend opens. Processes on several hosts share one catalog, and a
 * stamp one of them writes (a restore's sign of life, a drop's due time) is judged by another: by their own
 * clocks, a host running two minutes ahead took a live restore, whose stamp its writer keeps 60 s ahead of
 * its own clock, for dead and removed it [E5]. By the server's clock they agree, up to half the measuring
 * round trip. The process's clock still tells the passage of time (so a test's manual clock moves this one
 * too), and its monotonic clock is this one's.
 */
public final class CatalogClock implements TimeSource {

    private final TimeSource local;
    private final Duration offset;

    private CatalogClock(TimeSource local, Duration offset) {
        this.local = local;
        this.offset = offset;
    }

    /**
     * The clock {@code local} corrected to the server's: {@code server} is the server's time as read by one
     * round trip, between the local readings {@code before} and {@code after}, so it is taken to have been
     * read at their midpoint.
     *
     * @param local the process's clock
     * @param before the local time just before the server's time was asked for
     * @param server the server's time
     * @param after the local time just after it came back
     * @return the catalog's clock
     */
    public static CatalogClock measured(TimeSource local, Instant before, Instant server, Instant after) {
        Objects.requireNonNull(local, "local clock");
        Instant midpoint = before.plus(Duration.between(before, after).dividedBy(2));
        return new CatalogClock(local, Duration.between(midpoint, server));
    }

    /**
     * How far the server's clock is ahead of the process's (negative when behind).
     *
     * @return the offset added to the process's time
     */
    public Duration offset() {
        return offset;
    }

    @Override
    public Instant now() {
        return local.now().plus(offset);
    }

    @Override
    public long monotonicNanos() {
        return local.monotonicNanos();
    }
}

package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.core.CatalogClock;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * [E5] The catalog's clock: the process's clock plus its offset to the server's, the server's reading taken at
 * the midpoint of the round trip that read it; the process's clock still tells the passage of time, and its
 * monotonic clock is passed through.
 */
class CatalogClockTest {

    private final AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-12-07T10:00:00Z"));
    private final AtomicLong nanos = new AtomicLong(42);
    private final TimeSource local = new TimeSource() {
        @Override
        public Instant now() {
            return wall.get();
        }

        @Override
        public long monotonicNanos() {
            return nanos.get();
        }
    };

    @Test
    void theServersReadingCountsAsTakenHalfwayThroughItsRoundTrip() {
        Instant before = Instant.parse("2026-12-07T10:00:00Z");
        Instant after = before.plusMillis(40);
        Instant server = Instant.parse("2026-12-07T09:58:00.020Z");   // the host runs two minutes ahead
        CatalogClock clock = CatalogClock.measured(local, before, server, after);
        assertThat(clock.offset()).isEqualTo(Duration.ofMinutes(-2));
        assertThat(clock.now()).isEqualTo(Instant.parse("2026-12-07T09:58:00Z"));
    }

    @Test
    void theProcessClockStillTellsThePassageOfTime() {
        Instant t = wall.get();
        CatalogClock clock = CatalogClock.measured(local, t, t.plusSeconds(30), t);
        wall.set(t.plusSeconds(61));
        nanos.set(7_000);
        assertThat(clock.now()).isEqualTo(t.plusSeconds(91));
        assertThat(clock.monotonicNanos()).isEqualTo(7_000);
    }
}

package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.out.TableStatistics;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps ItemCount and TableSizeBytes fresh: the control-plane poller calls {@link #runIfDue()} on every
 * pass, and a recount runs on the first pass and then whenever {@code interval} has passed since the
 * last one. A recount whose listing of the tables failed is logged and retried on the next pass; one table
 * that cannot be counted is logged and retried by the next recount. Neither stops the pass.
 */
public final class StatisticsRefresh {

    /** How often the counts are recounted by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

    private static final Logger LOG = LoggerFactory.getLogger(StatisticsRefresh.class);

    private final TableStatistics statistics;
    private final TimeSource time;
    private final Duration interval;
    private Instant nextDue = Instant.MIN;

    /**
     * A refresh of {@code statistics} every {@code interval}, timed by {@code time}.
     *
     * @param statistics the backend's recount of item counts and sizes
     * @param time the clock deciding when a refresh is due
     * @param interval the time between refreshes
     */
    public StatisticsRefresh(TableStatistics statistics, TimeSource time, Duration interval) {
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.time = Objects.requireNonNull(time, "time");
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw StorageException.validation("the statistics interval must be positive, got " + interval);
        }
        this.interval = interval;
    }

    /**
     * Counts every ACTIVE table and records the counts that changed: a table whose counts did not change
     * is not written, so a recount that finds nothing new commits nothing. A table that cannot be counted or
     * recorded is logged and left to the next recount; the tables after it are still counted (found from
     * outside: one index relation dropped by hand kept every later table's counts at 0).
     */
    void recount() {
        for (TableStatistics.Counted table : statistics.activeTables()) {
            try {
                TableStatistics.Counts now = statistics.count(table);
                if (!now.equals(table.recorded())) {
                    statistics.record(table, now);
                }
            } catch (StorageException e) {
                LOG.warn("recounting one table failed; the next recount retries it: {}", e.getMessage());
            }
        }
    }

    /** Recounts when due; called from the poller's thread only. */
    public void runIfDue() {
        Instant now = time.now();
        if (now.isBefore(nextDue)) {
            return;
        }
        nextDue = now.plus(interval);
        try {
            recount();
        } catch (StorageException e) {
            LOG.warn("recounting ItemCount and TableSizeBytes failed; the next pass retries: {}", e.getMessage());
            nextDue = now;
        }
    }
}

package dev.stillpoint.domain.snapshot;

import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;

/**
 * How long a streaming snapshot lease may go without a page fetch before the engine reclaims it
 * [L1], on the model of PostgreSQL's {@code idle_in_transaction_session_timeout}: past it the
 * engine ends the read, returns the permit and wakes the poller, and the stream fails
 * SnapshotExpired naming the limit. A garbage collection is then never needed to free what an
 * abandoned stream held (the Cleaner stays as a second net).
 *
 * @param duration the limit; from {@link #MIN} to {@link #MAX}
 */
public record IdleLimit(Duration duration) {

    /** The name of the setting in every storage facade's configuration. */
    public static final String SETTING = "snapshotIdleLimit";

    /** The default limit: 60 s. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);

    /** The shortest limit accepted: 100 ms (a shorter one would expire streams between two pages). */
    public static final Duration MIN = Duration.ofMillis(100);

    /** The longest limit accepted: one day. */
    public static final Duration MAX = Duration.ofDays(1);

    /** The default limit. */
    public static final IdleLimit DEFAULT = new IdleLimit(DEFAULT_DURATION);

    /**
     * Refuses a missing limit or one outside {@link #MIN}..{@link #MAX} with a validation error naming it.
     *
     * @param duration the limit; from {@link #MIN} to {@link #MAX}
     */
    public IdleLimit {
        if (duration == null) {
            throw StorageException.validation(SETTING + " is required");
        }
        if (duration.compareTo(MIN) < 0 || duration.compareTo(MAX) > 0) {
            throw StorageException.validation(SETTING + " must be from " + text(MIN) + " to " + text(MAX)
                    + ", got " + text(duration));
        }
    }

    /** What the idle timer does after looking at a lease. */
    public sealed interface Check {
        /** The lease has been idle for the whole limit: release it ({@link LeaseEvent#IDLE_EXPIRED}). */
        record Expire() implements Check {
        }

        /** Not idle long enough (or a fetch is in flight): look again after {@code delay}. */
        record LookAgain(Duration delay) implements Check {
        }
    }

    /**
     * The decision for a lease idle for {@code idleNanos} (since its last page fetch ended, or since
     * it was handed out), with a fetch in flight or not. A fetch in flight is never idle: look
     * again a whole limit later (its end resets the clock).
     *
     * @param idleNanos nanoseconds since the last page was fetched (or since the stream was handed out)
     * @param fetchInFlight whether a page fetch is running now
     * @return whether to reclaim the stream now, or when to look again
     */
    public Check check(long idleNanos, boolean fetchInFlight) {
        if (fetchInFlight) {
            return new Check.LookAgain(duration);
        }
        long left = duration.toNanos() - Math.max(0, idleNanos);
        return left <= 0 ? new Check.Expire() : new Check.LookAgain(Duration.ofNanos(left));
    }

    /**
     * The message of the SnapshotExpired error a stream fails with once reclaimed for idling.
     *
     * @param table the table whose snapshot stream expired
     * @return the message, naming the table and the limit
     */
    public String expiredMessage(String table) {
        return "the snapshot of table '" + table + "' expired: no page was fetched for " + text(duration)
                + " (" + SETTING + " " + text(duration) + "), so its read and permit were reclaimed; open a new snapshot";
    }

    /**
     * The limit as people read it: {@code 60 s}, {@code 2.5 s}, {@code 250 ms}.
     *
     * @return the limit as text
     */
    public String text() {
        return text(duration);
    }

    private static String text(Duration d) {
        if (d.isNegative() || d.toMillis() < 1000) {
            return d.toMillis() + " ms";
        }
        if (d.toMillis() % 1000 == 0) {
            return d.toSeconds() + " s";
        }
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }
}

package dev.stillpoint.domain.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;

/**
 * How long a restore may go without a sign of life before it is taken for dead [E5]. A running
 * restore stamps its table "alive until now + limit" when it begins and again, while it writes,
 * each time a quarter of the limit has passed since its last stamp; a restoring table whose stamp has
 * passed belongs to a restore that was killed (or stalled for the whole limit), and the next poller
 * pass, in this process or any other on the same database, removes it as an abandoned restore.
 *
 * @param duration the limit; from {@link #MIN} to {@link #MAX}
 */
public record RestoreIdleLimit(Duration duration) {

    /** The name of the setting in every storage facade's configuration. */
    public static final String SETTING = "restoreIdleLimit";

    /** The default limit: 60 s. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);

    /** The shortest limit accepted: 1 s (a shorter one would take a live restore between two stamps for dead). */
    public static final Duration MIN = Duration.ofSeconds(1);

    /** The longest limit accepted: one day. */
    public static final Duration MAX = Duration.ofDays(1);

    /** The default limit. */
    public static final RestoreIdleLimit DEFAULT = new RestoreIdleLimit(DEFAULT_DURATION);

    /**
     * Refuses a missing limit or one outside {@link #MIN}..{@link #MAX} with a validation error naming it.
     *
     * @param duration the limit; from {@link #MIN} to {@link #MAX}
     */
    public RestoreIdleLimit {
        if (duration == null) {
            throw StorageException.validation(SETTING + " is required");
        }
        if (duration.compareTo(MIN) < 0 || duration.compareTo(MAX) > 0) {
            throw StorageException.validation(SETTING + " must be from 1 s to 1 day (86400 s), got "
                    + duration.toMillis() + " ms");
        }
    }

    /**
     * How often a running restore renews its stamp: a quarter of the limit, so three renewals can be
     * late before a live restore is taken for dead.
     *
     * @return the renewal interval
     */
    public Duration renewEvery() {
        return duration.dividedBy(4);
    }
}

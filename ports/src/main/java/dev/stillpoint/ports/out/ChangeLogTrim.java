package dev.stillpoint.ports.out;

import java.time.Duration;
import java.time.Instant;

/**
 * Trims the change logs of a backend's tables past their retention [I4], run by the control plane on every
 * pass. Each run records a checkpoint in every log (the instant {@code now} and what orders it against the
 * backend's snapshot markers [L5]) and cuts each log at its newest checkpoint no later than
 * {@code now - retention}: the changes that checkpoint's instant saw are deleted and the checkpoint becomes
 * the log's start, so a marker from before it is refused by name, never answered with a gap. A marker
 * younger than the retention is never refused: every checkpoint a cut can reach is older than it.
 */
public interface ChangeLogTrim {

    /**
     * Records a checkpoint at {@code now} in every change log, then cuts each at its newest checkpoint no
     * later than {@code now - retention}, if it has one. A table that fails is skipped (logged) and tried again
     * on the next run.
     *
     * @param now the control plane's clock
     * @param retention how long a log keeps its changes, at least
     */
    void trim(Instant now, Duration retention);
}

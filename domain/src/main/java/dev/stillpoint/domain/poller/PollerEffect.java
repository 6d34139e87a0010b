package dev.stillpoint.domain.poller;

import java.time.Instant;

/** Work a poller transition asks its thread to do. */
public sealed interface PollerEffect {

    /** Run one pass over every due transition and every DELETING table. */
    record RunPass() implements PollerEffect { }

    /** Wait until {@code until} or a wake, whichever comes first. */
    record WaitForWakeOrTimer(Instant until) implements PollerEffect { }

    /** Leave the loop. */
    record Exit() implements PollerEffect { }
}

package dev.stillpoint.domain.snapshot;

/** Work a lease transition asks for, performed in the order given. */
public enum LeaseEffect {
    /** Hand the fetched item to the caller. */
    DELIVER_ITEM,
    /** End the read transaction or session and give its connection back. */
    END_TRANSACTION,
    /** Give the permit back to the pool. */
    RETURN_PERMIT,
    /** Tell the control-plane poller a reader is gone, so a deferred drop is retried at once [P8]. */
    WAKE_POLLER,
    /** Say in the log that a stream was reclaimed without being closed [S5]. */
    LOG_ABANDONED,
    /** Say in the log that a stream was reclaimed because no page was fetched for its idle limit [L1]. */
    LOG_EXPIRED
}

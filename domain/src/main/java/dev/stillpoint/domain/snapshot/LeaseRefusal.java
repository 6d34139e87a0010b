package dev.stillpoint.domain.snapshot;

/** The named reasons a lease event is refused. */
public enum LeaseRefusal {
    /** An item arrived after the lease was released: it is dropped, never delivered. */
    ITEM_AFTER_RELEASE,
    /** An open step arrived out of order (for example a pin before the definition). */
    OUT_OF_ORDER,
    /** An item before the stream was handed out. */
    ITEM_BEFORE_STREAM
}

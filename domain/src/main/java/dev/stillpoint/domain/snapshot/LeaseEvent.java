package dev.stillpoint.domain.snapshot;

/** What happens to a snapshot lease [D6]. */
public enum LeaseEvent {
    /** The permit pool granted a permit. */
    PERMIT_GRANTED,
    /** The permit pool had none free. */
    PERMIT_REFUSED,
    /** The definition was read inside the read window. */
    DEFINITION_READ,
    /** The instant was pinned. */
    SNAPSHOT_PINNED,
    /** The open returned the stream to its caller. */
    STREAM_STARTED,
    /** A page produced an item. */
    ITEM_FETCHED,
    /** The last page showed the end. */
    END_SEEN,
    /** A read failed. */
    FAILED,
    /** The caller closed the stream or cancelled the open. */
    CLOSED,
    /** The stream became unreachable without being closed. */
    ABANDONED,
    /**
     * No page was fetched for the lease's idle limit [L1]: the engine reclaims the lease without
     * waiting for a garbage collection, and the stream then fails SnapshotExpired naming the limit.
     */
    IDLE_EXPIRED
}

package dev.stillpoint.ports.out;

import java.time.Duration;

/**
 * What an embedding server can watch of one opened storage [X1]: the core tells it the facts where
 * they happen (a permit refused, a lease released, a pass finished, a page streamed, a write done,
 * items restored) and, once each, hands it live views of the state it already keeps (the permit
 * ledger, the deferred drops), so a gauge reads that state instead of a second count of it.
 *
 * <p>Engine-neutral: the core knows no metrics library. {@link #NONE}, the default of every
 * backend's configuration, watches nothing. The {@code metrics-micrometer} module turns these calls
 * into Micrometer meters. Calls come on the threads doing the work (a reader's, the poller's, the
 * idle timer's, a writer's), so an implementation must be thread-safe, quick, and must not throw:
 * a failure here would become the failure of the work it watches.
 */
public interface StorageEvents {

    /** Watches nothing; every backend's default. */
    StorageEvents NONE = new StorageEvents() { };

    /**
     * The engine's snapshot permits, offered once when the snapshot engine is built [D7].
     *
     * @param permits a live view of the permit ledger
     */
    default void snapshotPermits(PermitFigures permits) {
    }

    /**
     * An open was refused because every permit was held (LimitExceeded) [D7].
     */
    default void permitRefused() {
    }

    /**
     * A snapshot's lease was released, once per lease, on whichever path ended it [S5, L1].
     *
     * @param end how it ended
     */
    default void leaseReleased(LeaseEnd end) {
    }

    /**
     * A snapshot stream fetched a page, before its items are handed out [S7].
     *
     * @param page the page
     */
    default void pageStreamed(Page page) {
    }

    /**
     * The control plane's deferred drops, offered once when its pass is wired [D8].
     *
     * @param drops a live view of the drops a holder keeps waiting
     */
    default void deferredDrops(DeferredDrops drops) {
    }

    /**
     * A control-plane pass ended [D8].
     *
     * @param took   how long it ran
     * @param failed true when it ended with an error (the next pass retries)
     */
    default void passFinished(Duration took, boolean failed) {
    }

    /**
     * A write through the table operations ended.
     *
     * @param write  which operation
     * @param took   how long it took, the request's rules included
     * @param failed true when it ended with an error
     */
    default void written(WriteKind write, Duration took, boolean failed) {
    }

    /**
     * A restore wrote a chunk of items into its new table [E4].
     *
     * @param items items written in this chunk
     */
    default void restored(int items) {
    }

    /**
     * An export completed (its manifest is in place) [E1, E2].
     *
     * @param items items written
     * @param bytes bytes of the data files, as stored
     */
    default void exported(long items, long bytes) {
    }

    /** The permit ledger as a gauge reads it. */
    interface PermitFigures {
        /**
         * Permits held now, by snapshots and backups.
         *
         * @return permits in use
         */
        int inUse();

        /**
         * Permits held now by snapshot streams: their leases are open.
         *
         * @return open snapshot leases
         */
        int heldBySnapshots();

        /**
         * The most permits out at once.
         *
         * @return the ledger's capacity
         */
        int capacity();
    }

    /** The drops a holder keeps waiting, as the last control-plane pass found them. */
    interface DeferredDrops {
        /**
         * Tables whose drop the last pass deferred.
         *
         * @return deferred drops pending
         */
        int pending();

        /**
         * How long the longest-waiting of them has been deferred, since the first pass that deferred it.
         *
         * @return its age; zero when none is pending
         */
        Duration oldest();
    }

    /** How a snapshot's lease ended; one closed set, so a tag made of it stays bounded. */
    enum LeaseEnd {
        /** The stream was read to its end. */
        DRAINED,
        /** The caller closed the stream before its end. */
        CLOSED,
        /** The stream was dropped without close and reclaimed by the Cleaner [S5]. */
        ABANDONED,
        /** No page was fetched for the idle limit; the engine reclaimed it [L1]. */
        EXPIRED,
        /** A read failed while streaming. */
        FAILED,
        /** The open failed, or its caller abandoned it, before the stream was handed out. */
        OPEN_FAILED
    }

    /** The writes of the table operations. */
    enum WriteKind {
        /** PutItem. */
        PUT,
        /** DeleteItem. */
        DELETE,
        /** BatchWriteItem. */
        BATCH
    }
}

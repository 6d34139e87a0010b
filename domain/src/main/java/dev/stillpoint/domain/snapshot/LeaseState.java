package dev.stillpoint.domain.snapshot;

/**
 * Where one snapshot lease stands [D6]: requested -> permitted -> defined -> pinned -> streaming
 * -> released(reason). A lease holds a permit from permitted until released.
 */
public sealed interface LeaseState {

    /**
     * The state's kind, so transitions can switch exhaustively over it.
     *
     * @return the kind of this state
     */
    Kind kind();

    /** The kinds of lease state. */
    enum Kind {
        /** Asked for; no permit yet. */
        REQUESTED,
        /** Holds a permit. */
        PERMITTED,
        /** The table's definition has been read. */
        DEFINED,
        /** The snapshot's instant is fixed. */
        PINNED,
        /** Handed to the caller; items flow. */
        STREAMING,
        /** Over for good. */
        RELEASED
    }

    /** Asked for; no permit yet. */
    record Requested() implements LeaseState {
        public Kind kind() { return Kind.REQUESTED; }
    }

    /** Holds a permit; the read transaction or session may have begun. */
    record Permitted() implements LeaseState {
        public Kind kind() { return Kind.PERMITTED; }
    }

    /** The table's definition has been read inside the read window. */
    record Defined() implements LeaseState {
        public Kind kind() { return Kind.DEFINED; }
    }

    /** The instant is fixed (MVCC snapshot, WAL snapshot or cluster time). */
    record Pinned() implements LeaseState {
        public Kind kind() { return Kind.PINNED; }
    }

    /** Handed to the caller; items flow. */
    record Streaming() implements LeaseState {
        public Kind kind() { return Kind.STREAMING; }
    }

    /** Over for good: nothing is delivered and nothing is returned again. */
    record Released(ReleaseReason reason, String detail) implements LeaseState {
        public Kind kind() { return Kind.RELEASED; }
    }

    /** Why a lease was released. */
    enum ReleaseReason {
        /** The end of the items was seen. */
        DRAINED,
        /** A read failed while streaming; the first error ends the stream. */
        FAILED,
        /** The caller closed the stream before its end (or it was reclaimed after being abandoned). */
        CLOSED_EARLY,
        /** The open failed (no permit, missing table, a failed read) before the stream was handed out. */
        OPEN_FAILED,
        /** The open was abandoned by its caller before it returned. */
        OPEN_CANCELLED,
        /**
         * No page was fetched for the idle limit while streaming [L1]: the engine ended the read and
         * returned the permit; the stream fails SnapshotExpired on its next use.
         */
        EXPIRED
    }
}

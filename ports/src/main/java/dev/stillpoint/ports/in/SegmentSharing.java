package dev.stillpoint.ports.in;

/**
 * How a backend serves a segmented snapshot [B2]: N streams over disjoint key ranges of one instant.
 * Asked of {@link StorageCapabilities#segments()} before anything is opened, so a caller (an export
 * with {@code -j N}) knows whether N segments read in parallel or only split one read.
 */
public enum SegmentSharing {
    /** No segmented snapshots: an open with segments is refused Unsupported. */
    NONE,
    /**
     * The segments are ranges of ONE read on one connection (SQLite cannot share a read transaction
     * between connections): one instant, but the database reads them one page at a time.
     */
    ONE_READ,
    /**
     * Each segment reads on its own connection or session, all at one instant the backend shares
     * between them (PostgreSQL's exported snapshot): the database reads the segments in parallel.
     */
    ACROSS_CONNECTIONS;

    /**
     * Whether a segmented snapshot can be opened at all.
     *
     * @return true unless {@link #NONE}
     */
    public boolean offered() {
        return this != NONE;
    }
}

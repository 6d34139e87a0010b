package dev.stillpoint.core.snapshot;

/**
 * Whether a snapshot stream fetches its next page while its reader works through the current one
 * (see {@link LeasedSnapshotEngine}). Reading ahead overlaps the database's work with the reader's,
 * at the cost of one more page in memory [S7] and a thread per stream while it reads.
 */
public enum ReadAhead {

    /** One page ahead, fetched on one of the engine's read-ahead threads: the default. */
    ONE_PAGE,

    /** Every page fetched on the reader's thread when the reader asks for it, none before. */
    NONE
}

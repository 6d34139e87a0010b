package dev.stillpoint.sqlcatalog;

/** The lock a catalog load takes on the table's {@code sp_tables} row (SQLite takes none: its writer is one). */
public enum RowLock {
    /** No lock: a plain read (a snapshot reads the row in its own read window). */
    NONE,
    /** Item writes: blocks UpdateTable and DeleteTable (FOR UPDATE) until the write commits. */
    KEY_SHARE,
    /** PostgreSQL's separate layout's snapshot open, until the data transaction pinned its snapshot [P2]. */
    SHARE,
    /** UpdateTable and DeleteTable [P2]. */
    UPDATE
}

package dev.stillpoint.adapters.postgres.testing;

/** The two PostgreSQL layouts every snapshot and DeleteTable scenario runs on. */
public enum Layout {
    /** Catalog and data in one database, one pool. */
    SHARED,
    /** The catalog in one database, the data relations in another, a pool each. */
    SEPARATE
}

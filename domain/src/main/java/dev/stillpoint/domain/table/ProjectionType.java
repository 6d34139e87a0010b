package dev.stillpoint.domain.table;

/** Which attributes an index copies from the base item. */
public enum ProjectionType {
    /** Every attribute of the base item. */
    ALL,
    /** Only the table's and the index's key attributes. */
    KEYS_ONLY,
    /** The keys plus the named non-key attributes. */
    INCLUDE
}

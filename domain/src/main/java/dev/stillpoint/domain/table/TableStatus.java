package dev.stillpoint.domain.table;

/**
 * A table's reported status [D4]. A table that is gone has no catalog row and so no status.
 */
public enum TableStatus {
    /** Being created: not found by item operations yet. */
    CREATING,
    /** Ready: items can be read and written. */
    ACTIVE,
    /** Being deleted: in use until its relations are dropped. */
    DELETING
}

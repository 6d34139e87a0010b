package dev.stillpoint.domain.table;

/**
 * A table's reported status [D4]. A table that is gone has no catalog row and so no status.
 */
public enum TableStatus {
    CREATING, ACTIVE, DELETING
}

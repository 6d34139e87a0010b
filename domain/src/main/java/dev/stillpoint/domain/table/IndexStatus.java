package dev.stillpoint.domain.table;

/** A global secondary or vector index's reported status [D4]; local indexes share the table's. */
public enum IndexStatus {
    CREATING, ACTIVE, DELETING
}

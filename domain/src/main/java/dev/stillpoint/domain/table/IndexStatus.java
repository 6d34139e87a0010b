package dev.stillpoint.domain.table;

/** A global secondary or vector index's reported status [D4]; local indexes share the table's. */
public enum IndexStatus {
    /** Being created and, for a global index, backfilled. */
    CREATING,
    /** Ready for queries. */
    ACTIVE,
    /** Being deleted: takes no new entries. */
    DELETING
}

package dev.stillpoint.domain.table;

import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.KeySchema;

/**
 * A global secondary index as the catalog describes it: its own key, its projection, its build
 * state, and the counts of the last statistics pass.
 *
 * @param backfilling whether the index is still being filled from the table's existing items
 */
public record GlobalSecondaryIndex(
        String name,
        KeySchema keySchema,
        Projection projection,
        IndexStatus status,
        boolean backfilling,
        long itemCount,
        long sizeBytes) {

    public GlobalSecondaryIndex {
        Names.requireIndexName(name);
        TableChecks.required(keySchema, "key schema of global secondary index '" + name + "'");
        TableChecks.required(projection, "projection of global secondary index '" + name + "'");
        TableChecks.required(status, "status of global secondary index '" + name + "'");
        TableChecks.nonNegative(itemCount, "item count of global secondary index '" + name + "'");
        TableChecks.nonNegative(sizeBytes, "size of global secondary index '" + name + "'");
    }

    /** A new index as UpdateTable creates it: CREATING, backfilling, empty. */
    public static GlobalSecondaryIndex creating(String name, KeySchema keySchema, Projection projection) {
        return new GlobalSecondaryIndex(name, keySchema, projection, IndexStatus.CREATING, true, 0, 0);
    }

    /**
     * This index in {@code newStatus}. Backfilling only happens while CREATING, so leaving CREATING
     * ends it.
     */
    public GlobalSecondaryIndex withStatus(IndexStatus newStatus) {
        TableChecks.required(newStatus, "status of global secondary index '" + name + "'");
        boolean stillBackfilling = backfilling && newStatus == IndexStatus.CREATING;
        return new GlobalSecondaryIndex(name, keySchema, projection, newStatus, stillBackfilling, itemCount, sizeBytes);
    }

    /** This index with its running counts zeroed, as a snapshot reports it [S2]. */
    public GlobalSecondaryIndex withoutCounts() {
        return new GlobalSecondaryIndex(name, keySchema, projection, status, backfilling, 0, 0);
    }
}

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

    /**
     * Checks the name and refuses a missing key schema, projection or status, or a negative count.
     *
     * @param name the index name
     * @param keySchema the index's own key
     * @param projection the attributes the index holds
     * @param status the index's reported status
     * @param backfilling whether the index is still being filled from the table's existing items
     * @param itemCount the item count of the last statistics pass
     * @param sizeBytes the size in bytes of the last statistics pass
     */
    public GlobalSecondaryIndex {
        Names.requireIndexName(name);
        TableChecks.required(keySchema, "key schema of global secondary index '" + name + "'");
        TableChecks.required(projection, "projection of global secondary index '" + name + "'");
        TableChecks.required(status, "status of global secondary index '" + name + "'");
        TableChecks.nonNegative(itemCount, "item count of global secondary index '" + name + "'");
        TableChecks.nonNegative(sizeBytes, "size of global secondary index '" + name + "'");
    }

    /**
     * A new index as UpdateTable creates it: CREATING, backfilling, empty.
     *
     * @param name the index name
     * @param keySchema the index's own key
     * @param projection the attributes the index holds
     * @return the new index
     */
    public static GlobalSecondaryIndex creating(String name, KeySchema keySchema, Projection projection) {
        return new GlobalSecondaryIndex(name, keySchema, projection, IndexStatus.CREATING, true, 0, 0);
    }

    /**
     * This index in {@code newStatus}. Backfilling only happens while CREATING, so leaving CREATING
     * ends it.
     *
     * @param newStatus the index's new status
     * @return the index in that status
     */
    public GlobalSecondaryIndex withStatus(IndexStatus newStatus) {
        TableChecks.required(newStatus, "status of global secondary index '" + name + "'");
        boolean stillBackfilling = backfilling && newStatus == IndexStatus.CREATING;
        return new GlobalSecondaryIndex(name, keySchema, projection, newStatus, stillBackfilling, itemCount, sizeBytes);
    }

    /**
     * This index with the running counts a statistics pass found (approximate, as DynamoDB's).
     *
     * @param newItemCount the index's entries
     * @param newSizeBytes the bytes they take
     * @return the index with those counts
     */
    public GlobalSecondaryIndex withCounts(long newItemCount, long newSizeBytes) {
        return new GlobalSecondaryIndex(name, keySchema, projection, status, backfilling, newItemCount, newSizeBytes);
    }

    /**
     * This index with its running counts zeroed, as a snapshot reports it [S2].
     *
     * @return the index with zero item count and size
     */
    public GlobalSecondaryIndex withoutCounts() {
        return new GlobalSecondaryIndex(name, keySchema, projection, status, backfilling, 0, 0);
    }
}

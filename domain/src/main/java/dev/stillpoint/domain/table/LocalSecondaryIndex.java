package dev.stillpoint.domain.table;

import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.KeySchema;

/**
 * A local secondary index: the table's partition key with another sort key. It is created and
 * deleted with its table, so it has no status of its own and a snapshot never leaves it out [D9].
 */
public record LocalSecondaryIndex(
        String name,
        KeySchema keySchema,
        Projection projection,
        long itemCount,
        long sizeBytes) {

    /**
     * Checks the name and refuses a missing key schema or projection, or a negative count.
     *
     * @param name the index name
     * @param keySchema the table's partition key with the index's sort key
     * @param projection the attributes the index holds
     * @param itemCount the item count of the last statistics pass
     * @param sizeBytes the size in bytes of the last statistics pass
     */
    public LocalSecondaryIndex {
        Names.requireIndexName(name);
        TableChecks.required(keySchema, "key schema of local secondary index '" + name + "'");
        TableChecks.required(projection, "projection of local secondary index '" + name + "'");
        TableChecks.nonNegative(itemCount, "item count of local secondary index '" + name + "'");
        TableChecks.nonNegative(sizeBytes, "size of local secondary index '" + name + "'");
    }

    /**
     * A new, empty index.
     *
     * @param name the index name
     * @param keySchema the table's partition key with the index's sort key
     * @param projection the attributes the index holds
     * @return the new index
     */
    public static LocalSecondaryIndex of(String name, KeySchema keySchema, Projection projection) {
        return new LocalSecondaryIndex(name, keySchema, projection, 0, 0);
    }

    /**
     * This index with the running counts a statistics pass found (approximate, as DynamoDB's).
     *
     * @param newItemCount the index's entries
     * @param newSizeBytes the bytes they take
     * @return the index with those counts
     */
    public LocalSecondaryIndex withCounts(long newItemCount, long newSizeBytes) {
        return new LocalSecondaryIndex(name, keySchema, projection, newItemCount, newSizeBytes);
    }

    /**
     * This index with its running counts zeroed, as a snapshot reports it [S2].
     *
     * @return the index with zero item count and size
     */
    public LocalSecondaryIndex withoutCounts() {
        return new LocalSecondaryIndex(name, keySchema, projection, 0, 0);
    }
}

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

    public LocalSecondaryIndex {
        Names.requireIndexName(name);
        TableChecks.required(keySchema, "key schema of local secondary index '" + name + "'");
        TableChecks.required(projection, "projection of local secondary index '" + name + "'");
        TableChecks.nonNegative(itemCount, "item count of local secondary index '" + name + "'");
        TableChecks.nonNegative(sizeBytes, "size of local secondary index '" + name + "'");
    }

    /** A new, empty index. */
    public static LocalSecondaryIndex of(String name, KeySchema keySchema, Projection projection) {
        return new LocalSecondaryIndex(name, keySchema, projection, 0, 0);
    }

    /** This index with its running counts zeroed, as a snapshot reports it [S2]. */
    public LocalSecondaryIndex withoutCounts() {
        return new LocalSecondaryIndex(name, keySchema, projection, 0, 0);
    }
}

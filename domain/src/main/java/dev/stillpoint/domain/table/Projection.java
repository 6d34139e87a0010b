package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The attributes an index holds besides the keys. Non-key attributes are named only for
 * {@link ProjectionType#INCLUDE}, as DynamoDB requires.
 */
public record Projection(ProjectionType type, List<String> nonKeyAttributes) {
    /**
     * Refuses a missing type or non-key attributes for any type but INCLUDE; copies the names.
     *
     * @param type which attributes the index copies
     * @param nonKeyAttributes the non-key attributes an INCLUDE projection names
     */
    public Projection {
        TableChecks.required(type, "projection type");
        nonKeyAttributes = TableChecks.copy(nonKeyAttributes, "projection non-key attribute");
        if (type != ProjectionType.INCLUDE && !nonKeyAttributes.isEmpty()) {
            throw StorageException.validation(
                    "projection " + type + " takes no non-key attributes, got: " + nonKeyAttributes);
        }
        for (String attribute : nonKeyAttributes) {
            if (attribute.isEmpty()) {
                throw StorageException.validation("projection non-key attribute names must not be empty");
            }
        }
        if (nonKeyAttributes.stream().distinct().count() != nonKeyAttributes.size()) {
            throw StorageException.validation("projection names a non-key attribute twice: " + nonKeyAttributes);
        }
    }

    /**
     * Every attribute of the base item.
     *
     * @return the ALL projection
     */
    public static Projection all() {
        return new Projection(ProjectionType.ALL, List.of());
    }

    /**
     * The table and index keys only.
     *
     * @return the KEYS_ONLY projection
     */
    public static Projection keysOnly() {
        return new Projection(ProjectionType.KEYS_ONLY, List.of());
    }

    /**
     * The keys and the named attributes.
     *
     * @param nonKeyAttributes the non-key attributes to copy into the index
     * @return the INCLUDE projection
     */
    public static Projection include(List<String> nonKeyAttributes) {
        return new Projection(ProjectionType.INCLUDE, nonKeyAttributes);
    }

    /**
     * What an index entry of {@code item} holds under this projection: every attribute for ALL; else the
     * table's and the index's key attributes, plus the named non-key attributes for INCLUDE, each only where
     * the item has it (AWS API Reference, "Projection": the primary and index keys "are automatically
     * projected", https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html).
     *
     * @param tableKey the base table's key schema
     * @param indexKey the index's key schema
     * @param item     the base item
     * @return the projected item, in the base item's attribute order
     */
    public Item entryOf(KeySchema tableKey, KeySchema indexKey, Item item) {
        if (type == ProjectionType.ALL) {
            return item;
        }
        Set<String> keep = new HashSet<>(nonKeyAttributes);
        for (KeySchema schema : List.of(tableKey, indexKey)) {
            keep.add(schema.partitionKey());
            schema.sortKey().ifPresent(keep::add);
        }
        Map<String, AttributeValue> projected = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> {
            if (keep.contains(name)) {
                projected.put(name, value);
            }
        });
        return Item.of(projected);
    }
}

package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeySchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The primary key values of one item: the partition value and, for a composite key, the sort value. */
public record Key(AttributeValue partition, Optional<AttributeValue> sort) {
    /**
     * Refuses a missing partition value.
     *
     * @param partition the partition key's value
     * @param sort the sort key's value, empty for a hash-only key
     */
    public Key {
        Checks.requireNonNull(partition, "key partition value");
        sort = sort == null ? Optional.empty() : sort;
    }

    /**
     * A hash-only key.
     *
     * @param partition the partition key's value
     * @return the key
     */
    public static Key of(AttributeValue partition) {
        return new Key(partition, Optional.empty());
    }

    /**
     * A composite key.
     *
     * @param partition the partition key's value
     * @param sort the sort key's value
     * @return the key
     */
    public static Key of(AttributeValue partition, AttributeValue sort) {
        Checks.requireNonNull(sort, "key sort value");
        return new Key(partition, Optional.of(sort));
    }

    /**
     * The key of a whole item (one being put, stored, exported or restored) under {@code schema}; a missing
     * key attribute is a validation error naming it. The item's other attributes are its payload, not part
     * of the key, so they are left out. Not for a request's key map: GetItem, DeleteItem and a batch delete
     * take a {@code RequestKey}, which must carry exactly the key attributes [V3].
     *
     * @param item the item
     * @param schema the key schema of the table or index
     * @return the item's key
     */
    public static Key of(Item item, KeySchema schema) {
        Checks.requireNonNull(item, "item");
        Checks.requireNonNull(schema, "key schema");
        AttributeValue partition = required(item, schema.partitionKey());
        Optional<AttributeValue> sort = schema.sortKey().map(name -> required(item, name));
        return new Key(partition, sort);
    }

    /**
     * The key's values under {@code schema}'s attribute names, as an item holding the key attributes only: a
     * change's {@code Keys}, a request key handed back, a key checked as PutItem checks an item.
     *
     * @param schema the key schema of the table or index the key belongs to
     * @return the item of the key attributes, partition key first
     */
    public Item asItem(KeySchema schema) {
        Checks.requireNonNull(schema, "key schema");
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put(schema.partitionKey(), partition);
        sort.ifPresent(s -> attributes.put(schema.sortKey().orElseThrow(), s));
        return new Item(attributes);
    }

    private static AttributeValue required(Item item, String name) {
        AttributeValue value = item.get(name);
        if (value == null) {
            throw StorageException.validation("item has no value for key attribute '" + name + "'");
        }
        return value;
    }
}

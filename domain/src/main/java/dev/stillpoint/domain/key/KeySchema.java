package dev.stillpoint.domain.key;

import dev.stillpoint.domain.error.StorageException;
import java.util.List;
import java.util.Optional;

/** The key of a table or index: a partition (hash) attribute and an optional sort (range) attribute. */
public record KeySchema(String partitionKey, Optional<String> sortKey) {
    /**
     * Checks both key names and refuses a sort key equal to the partition key.
     *
     * @param partitionKey the name of the partition (hash) attribute
     * @param sortKey the name of the sort (range) attribute, empty for a hash-only key
     */
    public KeySchema {
        if (partitionKey == null || partitionKey.isEmpty()) {
            throw StorageException.validation("key schema needs a partition key attribute name, got: " + partitionKey);
        }
        sortKey = sortKey == null ? Optional.empty() : sortKey;
        if (sortKey.filter(String::isEmpty).isPresent()) {
            throw StorageException.validation("key schema sort key attribute name must not be empty");
        }
        if (sortKey.filter(partitionKey::equals).isPresent()) {
            throw StorageException.validation("key schema uses '" + partitionKey + "' as both partition and sort key");
        }
    }

    /**
     * The key's attribute names, the partition key first.
     *
     * @return one name, or two for a key with a sort key
     */
    public List<String> attributeNames() {
        return sortKey.map(sort -> List.of(partitionKey, sort)).orElseGet(() -> List.of(partitionKey));
    }

    /**
     * A hash-only key schema.
     *
     * @param partitionKey the name of the partition attribute
     * @return the schema with {@code partitionKey} and no sort key
     */
    public static KeySchema hashOnly(String partitionKey) {
        return new KeySchema(partitionKey, Optional.empty());
    }

    /**
     * A composite key schema.
     *
     * @param partitionKey the name of the partition attribute
     * @param sortKey the name of the sort attribute
     * @return the schema with both keys
     */
    public static KeySchema composite(String partitionKey, String sortKey) {
        return new KeySchema(partitionKey, Optional.of(sortKey));
    }
}

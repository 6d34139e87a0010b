package dev.stillpoint.domain.key;

import dev.stillpoint.domain.error.StorageException;
import java.util.Optional;

/** The key of a table or index: a partition (hash) attribute and an optional sort (range) attribute. */
public record KeySchema(String partitionKey, Optional<String> sortKey) {
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

    public static KeySchema hashOnly(String partitionKey) {
        return new KeySchema(partitionKey, Optional.empty());
    }

    public static KeySchema composite(String partitionKey, String sortKey) {
        return new KeySchema(partitionKey, Optional.of(sortKey));
    }
}

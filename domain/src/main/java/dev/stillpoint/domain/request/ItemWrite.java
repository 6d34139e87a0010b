package dev.stillpoint.domain.request;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import java.util.Map;
import java.util.Optional;

/**
 * A put the rules accepted, ready for storage: the item with its numbers normalised, its primary key,
 * and its key under each index it belongs to (by index name). An index the item lacks a key
 * attribute for is absent from {@code indexKeys}: the item is simply not in that index [R3].
 *
 * @param key       the item's primary key
 * @param item      the item as it is to be stored
 * @param indexKeys the item's key in each index that holds it, by index name
 */
public record ItemWrite(Key key, Item item, Map<String, Key> indexKeys) {

    /**
     * Copies {@code indexKeys}.
     *
     * @param key the item's primary key
     * @param item the item as it is to be stored
     * @param indexKeys the item's key in each index that holds it, by index name
     */
    public ItemWrite {
        indexKeys = Map.copyOf(indexKeys);
    }

    /**
     * The item's key under {@code indexName}, empty when the item is not in that index.
     *
     * @param indexName the name of a global or local index of the table
     * @return the item's key in that index, or empty
     */
    public Optional<Key> indexKey(String indexName) {
        return Optional.ofNullable(indexKeys.get(indexName));
    }
}

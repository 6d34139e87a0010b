package dev.stillpoint.domain.request;

import dev.stillpoint.domain.item.Item;

/**
 * One request of a BatchWriteItem [R7], as the caller gave it: put an item, or delete the item under
 * a key. What the rules make of it against the table's definition is an {@link ItemChange}.
 */
public sealed interface WriteRequest {

    /**
     * Put {@code item}, replacing any item under its key.
     *
     * @param item the item to put
     */
    record Put(Item item) implements WriteRequest {
    }

    /**
     * Delete the item under {@code key}; a missing item is no error. The key is the request's map, checked
     * against the table's key schema by the rules [V3].
     *
     * @param key the primary key of the item to delete, as the request gave it
     */
    record Delete(RequestKey key) implements WriteRequest {
    }
}

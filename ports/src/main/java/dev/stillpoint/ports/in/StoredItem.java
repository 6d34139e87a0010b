package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import java.util.Optional;

/**
 * One item as its backend stored it [S4]. The export path takes {@link #json()} as it is; only a
 * caller that asks for {@link #item()} pays for decoding it into attribute values.
 */
public interface StoredItem {

    /**
     * The item in DynamoDB JSON (attribute name to typed value), exactly as stored.
     *
     * @return the stored DynamoDB JSON text
     */
    String json();

    /**
     * The item decoded into attribute values.
     *
     * @return the item's attributes
     */
    Item item();

    /**
     * The key the backend stores this item under, where it keeps one apart from {@link #json()};
     * empty where the item is its own key (the default) [E1].
     *
     * @return the stored key, or empty
     */
    default Optional<StoredKey> storedKey() {
        return Optional.empty();
    }
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;

/**
 * One item as its backend stored it [S4]. The export path takes {@link #json()} as it is; only a
 * caller that asks for {@link #item()} pays for decoding it into attribute values.
 */
public interface StoredItem {

    /** The item in DynamoDB JSON (attribute name to typed value), exactly as stored. */
    String json();

    /** The item decoded into attribute values. */
    Item item();
}

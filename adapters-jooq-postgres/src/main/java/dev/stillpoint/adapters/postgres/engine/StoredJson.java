package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;

/** An item as the data relation stores it; decoded only when asked [S4]. */
record StoredJson(String json) implements StoredItem {
    @Override
    public Item item() {
        return ItemJson.decode(json);
    }
}

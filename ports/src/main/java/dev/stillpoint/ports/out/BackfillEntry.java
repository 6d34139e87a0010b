package dev.stillpoint.ports.out;

import dev.stillpoint.domain.item.Key;
import java.util.Objects;

/**
 * One entry a new index gets for a base item during its backfill: the core decided the item belongs in
 * the index and under which key; the backend only stores it.
 *
 * @param indexKey the item's key in the index
 * @param item the base item, as the scan read it
 */
public record BackfillEntry(Key indexKey, BaseItem item) {

    /**
     * Requires both parts.
     *
     * @param indexKey the item's key in the index
     * @param item the base item, as the scan read it
     */
    public BackfillEntry {
        Objects.requireNonNull(indexKey, "indexKey");
        Objects.requireNonNull(item, "item");
    }
}

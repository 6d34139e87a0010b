package dev.stillpoint.ports.out;

import dev.stillpoint.ports.in.StoredItem;
import java.util.List;

/**
 * One page of a snapshot's items.
 *
 * @param items the items, in stream order
 * @param last  true when the source saw its end: no page follows
 */
public record Page(List<StoredItem> items, boolean last) {
    /**
     * Copies {@code items}.
     *
     * @param items the items, in stream order
     * @param last true when the source saw its end: no page follows
     */
    public Page {
        items = List.copyOf(items);
    }
}

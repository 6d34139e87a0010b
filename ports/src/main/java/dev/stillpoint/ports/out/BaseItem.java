package dev.stillpoint.ports.out;

import dev.stillpoint.domain.item.Item;

/**
 * An item of a table's base relation as an {@link IndexBuild}'s scan read it: the item the core's rules
 * read, and whatever the backend needs to write the item's index entry (its stored text, its key as the
 * relation holds it, its revision), kept by the implementing class, which only its own backend reads.
 */
public interface BaseItem {

    /**
     * The item as stored.
     *
     * @return the item
     */
    Item item();
}

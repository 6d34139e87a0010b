package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import java.util.Objects;
import java.util.Optional;

/**
 * A key's net change in a window of the change log [I2]: a put (the item as it stands at the window's end)
 * or a tombstone (the key was deleted, and has no item at the window's end).
 *
 * @param keys the key attributes, as the table's key schema names them
 * @param newImage the item at the window's end; empty for a tombstone
 * @param oldImage the item at the window's start, where the log keeps old images and the key had one
 */
public record LoggedChange(Item keys, Optional<Item> newImage, Optional<Item> oldImage) {

    /**
     * Checks every part is present.
     *
     * @param keys the key attributes
     * @param newImage the item at the window's end, or empty for a tombstone
     * @param oldImage the item at the window's start, or empty
     */
    public LoggedChange {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(newImage, "newImage");
        Objects.requireNonNull(oldImage, "oldImage");
    }

    /**
     * Whether this change is a delete.
     *
     * @return true when the key has no item at the window's end
     */
    public boolean tombstone() {
        return newImage.isEmpty();
    }
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Key;

/**
 * The key a backend stores an item under, kept apart from the item's JSON (SQLite's {@code pk} and
 * {@code sk} columns). An export compares it with the key attributes it reads from the JSON, so a row
 * whose item names another key is caught [E1].
 */
public interface StoredKey {

    /**
     * Whether {@code key}, as the item's JSON spells it, is this stored key under the backend's own key
     * encoding; false also when the backend could not encode it at all.
     *
     * @param key a key as the item's JSON spells it
     * @return true when it is this stored key
     */
    boolean matches(Key key);

    /**
     * The stored key for a message, in a form an operator can look the row up by (e.g. {@code pk=x'61'}).
     *
     * @return the stored key as text
     */
    String describe();
}

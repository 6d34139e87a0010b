package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import java.util.Optional;

/**
 * One item as its backend stored it [S4]. The export path takes {@link #storedBytes()} where the
 * backend hands them over, else {@link #json()}, as they are; only a caller that asks for
 * {@link #item()} pays for decoding it into attribute values.
 */
public interface StoredItem {

    /**
     * The item in DynamoDB JSON (attribute name to typed value), exactly as stored. Stored bytes that
     * are not UTF-8 are not text: they are refused, never read with U+FFFD in their place.
     *
     * @return the stored DynamoDB JSON text
     * @throws dev.stillpoint.domain.error.StorageException INTERNAL, naming the offset and the byte,
     *     when the stored bytes are not well-formed UTF-8
     */
    String json();

    /**
     * The stored text's bytes exactly as the backend's driver handed them over, where it hands over
     * bytes (a SQL text column read with {@code getBytes}); empty where the backend holds the text as
     * a {@code String} (the default). So an export writes what is stored without decoding and
     * re-encoding it [E1]. The bytes are not checked: a SQLite text column holds whatever a client wrote,
     * so a reader that passes them on as text checks that they are UTF-8. The array is the item's own:
     * read it, never change it.
     *
     * @return the stored bytes, or empty
     */
    default Optional<byte[]> storedBytes() {
        return Optional.empty();
    }

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

package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An item as a SQL data relation stores it, held as the UTF-8 bytes the driver returned for the item
 * column (sqlite-jdbc's and pgjdbc's {@code getBytes} on a text column); decoded only when asked [S4].
 * {@link #item()} parses the bytes ({@link ItemJson#decodeUtf8}) and {@link #json()} makes the
 * {@code String} on first asking, so a reader pays for the one form it takes (BENCHMARKS.md,
 * "Decoding from the driver's bytes").
 */
public class StoredUtf8 implements StoredItem {
    private final byte[] utf8;
    // Made on the first json(); a race makes it twice, equal, which is harmless.
    private String json;

    /**
     * The item whose stored text is {@code utf8}.
     *
     * @param utf8 the item column's bytes, kept (not copied) and never changed
     */
    public StoredUtf8(byte[] utf8) {
        this.utf8 = utf8;
    }

    /**
     * The size of the stored text in bytes, as a page budget counts it.
     *
     * @return the number of UTF-8 bytes
     */
    public final int size() {
        return utf8.length;
    }

    @Override
    public final String json() {
        String text = json;
        if (text == null) {
            text = new String(utf8, StandardCharsets.UTF_8);
            json = text;
        }
        return text;
    }

    @Override
    public final Item item() {
        return ItemJson.decodeUtf8(utf8);
    }

    /**
     * Whether {@code other} holds the same stored bytes.
     *
     * @param other the item to compare with
     * @return true when both texts are byte for byte the same
     */
    protected final boolean sameText(StoredUtf8 other) {
        return Arrays.equals(utf8, other.utf8);
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && sameText((StoredUtf8) o);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(utf8);
    }

    @Override
    public String toString() {
        return json();
    }
}

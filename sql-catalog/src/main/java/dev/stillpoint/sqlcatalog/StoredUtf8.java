package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Utf8Text;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * An item as a SQL data relation stores it, held as the UTF-8 bytes the driver returned for the item
 * column (sqlite-jdbc's and pgjdbc's {@code getBytes} on a text column); decoded only when asked [S4].
 * {@link #item()} parses the bytes ({@link ItemJson#decodeUtf8}) and {@link #json()} makes the
 * {@code String} on first asking, so a reader pays for the one form it takes (BENCHMARKS.md,
 * "Decoding from the driver's bytes"); {@link #storedBytes()} hands the bytes themselves to an export.
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
            // The JDK decodes what is not UTF-8 as U+FFFD; one may also be stored as such, so only then is it asked where.
            if (text.indexOf('\uFFFD') >= 0) {
                int at = Utf8Text.firstMalformedByte(utf8);
                if (at >= 0) {
                    throw StorageException.internal(String.format("a stored item's text is not UTF-8: byte 0x%02X at offset %d,"
                            + " after '%s'", utf8[at] & 0xFF, at, before(at)), null);
                }
            }
            json = text;
        }
        return text;
    }

    /** The last 40 code points, at most, of the well-formed text before offset {@code at}, to find the item by. */
    private String before(int at) {
        String prefix = new String(utf8, 0, at, StandardCharsets.UTF_8);
        int points = prefix.codePointCount(0, prefix.length());
        return points <= 40 ? prefix : "..." + prefix.substring(prefix.offsetByCodePoints(prefix.length(), -40));
    }

    @Override
    public final Optional<byte[]> storedBytes() {
        return Optional.of(utf8);
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

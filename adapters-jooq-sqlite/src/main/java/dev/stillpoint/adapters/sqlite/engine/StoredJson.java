package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKey;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * An item as the data relation stores it, with the row's key columns; decoded only when asked [S4].
 * {@code pk} and {@code sk} are null for an item read without its stored key ({@link dev.stillpoint.ports.in.StoredKeys#OMITTED}).
 */
record StoredJson(String json, byte[] pk, byte[] sk) implements StoredItem {

    /**
     * The current row's item and key columns [E1]. The item is taken as its UTF-8 bytes and decoded here:
     * sqlite-jdbc's {@code getString} hands the text over through a direct buffer and one more copy,
     * which cost more per row than {@code getBytes} (BENCHMARKS.md, "SQLite snapshot read path").
     */
    static StoredJson read(ResultSet rs, int item, int pk, int sk) throws SQLException {
        return new StoredJson(text(rs, item), rs.getBytes(pk), rs.getBytes(sk));
    }

    /** The current row's item alone, with no stored key: two column reads fewer per row. */
    static StoredJson read(ResultSet rs, int item) throws SQLException {
        return new StoredJson(text(rs, item), null, null);
    }

    private static String text(ResultSet rs, int item) throws SQLException {
        return new String(rs.getBytes(item), StandardCharsets.UTF_8);
    }

    @Override
    public Item item() {
        return ItemJson.decode(json);
    }

    @Override
    public Optional<StoredKey> storedKey() {
        return pk == null ? Optional.empty() : Optional.of(new RowKey(pk, sk));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredJson other && other.json.equals(json) && Arrays.equals(other.pk, pk)
                && Arrays.equals(other.sk, sk);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json;
    }

    /** The row's {@code pk}, {@code sk} columns in {@link dev.stillpoint.adapters.sqlite.storage.KeyCodec} bytes [E1]. */
    private record RowKey(byte[] pk, byte[] sk) implements StoredKey {
        @Override
        public boolean matches(Key key) {
            try {
                ItemKeys encoded = ItemKeys.of(key);
                return Arrays.equals(encoded.pk(), pk) && Arrays.equals(encoded.sk(), sk);
            } catch (StorageException | IllegalArgumentException e) {
                return false; // a value the codec cannot encode is no stored key
            }
        }

        @Override
        public String describe() {
            HexFormat hex = HexFormat.of().withUpperCase();
            return "pk=x'" + hex.formatHex(pk) + "' sk=x'" + hex.formatHex(sk) + "'";
        }
    }
}

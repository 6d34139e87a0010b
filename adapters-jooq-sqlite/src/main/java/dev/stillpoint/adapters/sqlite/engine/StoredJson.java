package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.ports.in.StoredKey;
import dev.stillpoint.sqlcatalog.StoredUtf8;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * An item as the data relation stores it, with the row's key columns; decoded only when asked [S4].
 * {@code pk} and {@code sk} are null for an item read without its stored key ({@link dev.stillpoint.ports.in.StoredKeys#OMITTED}).
 * The item is kept as the column's UTF-8 bytes ({@link StoredUtf8}).
 */
final class StoredJson extends StoredUtf8 {
    private final byte[] pk;
    private final byte[] sk;

    private StoredJson(byte[] utf8, byte[] pk, byte[] sk) {
        super(utf8);
        this.pk = pk;
        this.sk = sk;
    }

    /**
     * The current row's item and key columns [E1]. The item is taken with {@code getBytes}:
     * sqlite-jdbc's {@code getString} hands the text over through a direct buffer and one more copy,
     * which cost more per row (BENCHMARKS.md, "SQLite snapshot read path").
     */
    static StoredJson read(ResultSet rs, int item, int pk, int sk) throws SQLException {
        return new StoredJson(rs.getBytes(item), rs.getBytes(pk), rs.getBytes(sk));
    }

    /** The current row's item alone, with no stored key: two column reads fewer per row. */
    static StoredJson read(ResultSet rs, int item) throws SQLException {
        return new StoredJson(rs.getBytes(item), null, null);
    }

    @Override
    public Optional<StoredKey> storedKey() {
        return pk == null ? Optional.empty() : Optional.of(new RowKey(pk, sk));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredJson other && sameText(other) && Arrays.equals(other.pk, pk) && Arrays.equals(other.sk, sk);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
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

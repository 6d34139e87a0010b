package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.ports.in.StoredKey;
import dev.stillpoint.sqlcatalog.StoredUtf8;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An item of a snapshot read with its row's key columns [E1]: the item column's UTF-8 bytes
 * ({@link StoredUtf8}) and the {@code pk}, {@code sk} values as the relation holds them (text in
 * {@link ItemKeys#keyText} form, numeric as {@code BigDecimal}, bytea as bytes). An export compares them with
 * the key attributes the item's JSON names, so a row whose text was changed to name another key is caught,
 * as on SQLite; read only when {@code StoredKeys.INCLUDED} asks, so the other readers fetch the item alone.
 */
final class StoredRow extends StoredUtf8 {
    private final Object pk;
    private final Object sk;

    private StoredRow(byte[] utf8, Object pk, Object sk) {
        super(utf8);
        this.pk = pk;
        this.sk = sk;
    }

    /**
     * The current row: the item in column 1, then one key column per type of {@code keyTypes} (pk, then sk).
     *
     * @param utf8 column 1's bytes, already read
     */
    static StoredRow read(byte[] utf8, ResultSet rows, List<ScalarType> keyTypes) throws SQLException {
        Object pk = column(rows, 2, keyTypes.get(0));
        Object sk = keyTypes.size() > 1 ? column(rows, 3, keyTypes.get(1)) : null;
        return new StoredRow(utf8, pk, sk);
    }

    private static Object column(ResultSet rows, int column, ScalarType type) throws SQLException {
        return switch (type) {
            case S -> rows.getString(column);
            case N -> rows.getBigDecimal(column);
            case B -> rows.getBytes(column);
        };
    }

    @Override
    public Optional<StoredKey> storedKey() {
        return Optional.of(new RowKey(pk, sk));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredRow other && sameText(other) && same(pk, other.pk) && same(sk, other.sk);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    /** Equal as the relation compares them: numbers by value, bytes by content. */
    private static boolean same(Object stored, Object given) {
        if (stored instanceof BigDecimal a && given instanceof BigDecimal b) {
            return a.compareTo(b) == 0;
        }
        if (stored instanceof byte[] a && given instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(stored, given);
    }

    /** The row's {@code pk}, {@code sk} column values. */
    private record RowKey(Object pk, Object sk) implements StoredKey {
        @Override
        public boolean matches(Key key) {
            try {
                ItemKeys values = ItemKeys.of(key);
                return same(pk, values.pk()) && same(sk, values.sk().orElse(null));
            } catch (StorageException | IllegalArgumentException e) {
                return false; // a value the relation could not hold is no stored key
            }
        }

        /** The values as the relation holds them (text in its stored form), each shown with its type. */
        @Override
        public String describe() {
            return "pk=" + shown(pk) + (sk == null ? "" : " sk=" + shown(sk));
        }

        private static String shown(Object value) {
            AttributeValue v = value instanceof byte[] bytes ? new AttributeValue.B(bytes)
                    : value instanceof BigDecimal number ? new AttributeValue.N(number.toPlainString())
                    : new AttributeValue.S(String.valueOf(value));
            return AttributeValue.shown(v);
        }
    }
}

package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * A key as the data relations store it: each value in its column's SQL type (S as a Java string
 * for a {@code text COLLATE "C"} column, N as the normalised {@code BigDecimal} for {@code numeric},
 * B as the raw bytes for {@code bytea}).
 */
record ItemKeys(Object pk, Optional<Object> sk) {

    static ItemKeys of(Key key) {
        return new ItemKeys(sqlValue(key.partition()), key.sort().map(ItemKeys::sqlValue));
    }

    static Object sqlValue(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return keyText(s.value());
        }
        if (value instanceof AttributeValue.B b) {
            return b.bytes();
        }
        if (value instanceof AttributeValue.N n) {
            return DynamoNumber.value(n.text());
        }
        throw StorageException.validation("a key value must be S, N or B, got " + value.typeName());
    }

    /**
     * An S key value as its {@code text} column holds it. PostgreSQL text cannot hold U+0000, which
     * DynamoDB strings may [R4], so U+0000 is stored as U+0001 U+0001 and U+0001 as U+0001 U+0002: the
     * mapping is one to one and keeps UTF-8 byte order (COLLATE "C"), so keys stay unique and ordered [D2].
     * Only the key columns hold this form; the item's JSON keeps the string as written.
     */
    static String keyText(String value) {
        if (value.indexOf('\u0000') < 0 && value.indexOf('\u0001') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\u0000') {
                out.append('\u0001').append('\u0001');
            } else if (c == '\u0001') {
                out.append('\u0001').append('\u0002');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The values in column order: pk, then sk when present. */
    List<Object> values() {
        List<Object> out = new ArrayList<>(2);
        out.add(pk);
        sk.ifPresent(out::add);
        return out;
    }

    /** {@code pk = ? [and sk = ?]} over the relation's own key columns. */
    Condition matches(RelationLayout layout) {
        return equal(layout.keyColumns());
    }

    private Condition equal(List<Field<Object>> columns) {
        List<Object> values = values();
        if (columns.size() != values.size()) {
            throw StorageException.internal("key " + values.size() + " values for " + columns.size() + " columns", null);
        }
        Condition c = DSL.noCondition();
        for (int i = 0; i < columns.size(); i++) {
            c = c.and(columns.get(i).eq(DSL.val(values.get(i), columns.get(i))));
        }
        return c;
    }
}

package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
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

    /**
     * The item's key under an index's {@code schema} with the declared key {@code types}: empty when
     * the item lacks one of the key attributes (it is not in that index); a value of another type than
     * declared is refused (as DynamoDB refuses a put whose index key has the wrong type) or, with
     * {@code lenient}, left out of the index (a backfill skips such items).
     */
    static Optional<ItemKeys> under(KeySchema schema, ScalarType pkType, Optional<ScalarType> skType, Item item,
                                    boolean lenient) {
        Optional<Object> partition = value(schema.partitionKey(), pkType, item, lenient);
        if (partition.isEmpty()) {
            return Optional.empty();
        }
        if (schema.sortKey().isEmpty()) {
            return Optional.of(new ItemKeys(partition.get(), Optional.empty()));
        }
        Optional<Object> sort = value(schema.sortKey().get(), skType.orElseThrow(), item, lenient);
        return sort.map(s -> new ItemKeys(partition.get(), Optional.of(s)));
    }

    private static Optional<Object> value(String attribute, ScalarType type, Item item, boolean lenient) {
        Optional<AttributeValue> found = item.find(attribute);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        AttributeValue v = found.get();
        if (!v.typeName().equals(type.name())) {
            if (lenient) {
                return Optional.empty();
            }
            throw StorageException.validation("index key attribute '" + attribute + "' is declared " + type
                    + " but the item holds a " + v.typeName() + " value");
        }
        return Optional.of(sqlValue(v));
    }

    static Object sqlValue(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return s.value();
        }
        if (value instanceof AttributeValue.B b) {
            return b.bytes();
        }
        if (value instanceof AttributeValue.N n) {
            return DynamoNumber.value(n.text());
        }
        throw StorageException.validation("a key value must be S, N or B, got " + value.typeName());
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

    /** {@code base_pk = ? [and base_sk = ?]} over an index relation's base key columns. */
    Condition matchesBase(RelationLayout index) {
        return equal(index.baseKeyColumns());
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

package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * The one statement of key order [D1, D2]: partition value first, then sort value; S by UTF-8
 * bytes (unsigned), B by unsigned bytes, N by numeric value. Tests, adapters and the export format
 * all use it.
 *
 * <p>A stored N whose text is not a valid number [S4] still has a place, so the order stays total:
 * after every valid number, among other invalid texts by UTF-8 bytes. Two valid N texts of one value
 * (say {@code 1} and {@code 1.0}) compare equal; stored keys are normalised, so for them the order
 * is consistent with {@code equals}.
 */
public final class KeyOrder {
    private static final int SHOWN_CHARS = 64;

    private final KeySchema schema;
    private final ScalarType partitionType;
    private final Optional<ScalarType> sortType;

    private KeyOrder(KeySchema schema, ScalarType partitionType, Optional<ScalarType> sortType) {
        this.schema = schema;
        this.partitionType = partitionType;
        this.sortType = sortType;
    }

    /** The outcome of {@link #resolve}: a table's keys either have an order or they do not. */
    public sealed interface Resolution permits Orderable, Unorderable {
        /**
         * The order, when there is one.
         *
         * @return the order, or empty for an unorderable table
         */
        default Optional<KeyOrder> ordered() {
            return this instanceof Orderable orderable ? Optional.of(orderable.order()) : Optional.empty();
        }
    }

    /** Every key attribute has an S, N or B definition: items can be streamed in this order. */
    public record Orderable(KeyOrder order) implements Resolution {
        /**
         * Refuses a missing order.
         *
         * @param order the order of the table's keys
         */
        public Orderable {
            if (order == null) {
                throw StorageException.validation("an orderable resolution needs its key order");
            }
        }
    }

    /** A key attribute has no usable definition: the table streams unordered and complete [D1]. */
    public record Unorderable(String reason) implements Resolution {
        /**
         * Refuses a missing reason.
         *
         * @param reason why the keys have no order, naming the attribute
         */
        public Unorderable {
            if (reason == null || reason.isEmpty()) {
                throw StorageException.validation("an unorderable resolution needs a reason");
            }
        }
    }

    /**
     * The order of {@code schema}'s keys [D1]: orderable only when every key attribute has exactly
     * one type among {@code definitions}; otherwise unorderable, the reason naming the attribute.
     *
     * @param schema the key schema of the table or index
     * @param definitions the table's attribute definitions
     * @return the order, or why there is none
     */
    public static Resolution resolve(KeySchema schema, Collection<AttributeDefinition> definitions) {
        if (schema == null) {
            throw StorageException.validation("key order needs a key schema, got null");
        }
        if (definitions == null) {
            throw StorageException.validation("key order needs attribute definitions, got null");
        }
        Lookup partition = lookup(schema.partitionKey(), definitions);
        if (partition.problem != null) {
            return new Unorderable(partition.problem);
        }
        Optional<ScalarType> sortType = Optional.empty();
        if (schema.sortKey().isPresent()) {
            Lookup sort = lookup(schema.sortKey().get(), definitions);
            if (sort.problem != null) {
                return new Unorderable(sort.problem);
            }
            sortType = Optional.of(sort.type);
        }
        return new Orderable(new KeyOrder(schema, partition.type, sortType));
    }

    private record Lookup(ScalarType type, String problem) {
    }

    private static Lookup lookup(String name, Collection<AttributeDefinition> definitions) {
        ScalarType found = null;
        for (AttributeDefinition definition : definitions) {
            if (definition == null || !definition.name().equals(name)) {
                continue;
            }
            if (found != null && found != definition.type()) {
                return new Lookup(null, "key attribute '" + name + "' has conflicting definitions: "
                        + found + " and " + definition.type());
            }
            found = definition.type();
        }
        if (found == null) {
            return new Lookup(null, "key attribute '" + name + "' has no attribute definition");
        }
        return new Lookup(found, null);
    }

    /**
     * The key schema this order is for.
     *
     * @return the key schema whose attributes this order compares
     */
    public KeySchema schema() {
        return schema;
    }

    /**
     * The declared type of the partition key.
     *
     * @return the partition key's scalar type
     */
    public ScalarType partitionType() {
        return partitionType;
    }

    /**
     * The declared type of the sort key, for a composite key.
     *
     * @return the sort key's scalar type, empty for a hash-only key
     */
    public Optional<ScalarType> sortType() {
        return sortType;
    }

    /**
     * Orders two keys: partition values first, then sort values.
     *
     * @param a the first key
     * @param b the second key
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public int compare(Key a, Key b) {
        requireKey(a);
        requireKey(b);
        int byPartition = compareValues(partitionType, a.partition(), b.partition());
        if (byPartition != 0 || sortType.isEmpty()) {
            return byPartition;
        }
        return compareValues(sortType.get(), a.sort().get(), b.sort().get());
    }

    /**
     * Orders two items by their keys; an item without a key attribute is a validation error naming it.
     *
     * @param a the first item
     * @param b the second item
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public int compareItems(Item a, Item b) {
        return compare(Key.of(a, schema), Key.of(b, schema));
    }

    /**
     * {@link #compareItems} as a comparator.
     *
     * @return a comparator of items by key in this order
     */
    public Comparator<Item> itemComparator() {
        return this::compareItems;
    }

    /**
     * {@link #compare} as a comparator.
     *
     * @return a comparator of keys in this order
     */
    public Comparator<Key> keyComparator() {
        return this::compare;
    }

    /**
     * Orders two key values of {@code type}: S by UTF-8 bytes, B by unsigned bytes, N by numeric value
     * (invalid texts last, see the class comment). A value of another type is a validation error naming it.
     *
     * @param type the declared type of the key attribute
     * @param a the first value
     * @param b the second value
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public static int compareValues(ScalarType type, AttributeValue a, AttributeValue b) {
        if (type == null) {
            throw StorageException.validation("comparing key values needs their type, got null");
        }
        requireType(type, a);
        requireType(type, b);
        return switch (type) {
            case S -> compareUtf8(((AttributeValue.S) a).value(), ((AttributeValue.S) b).value());
            case B -> compareUnsigned(((AttributeValue.B) a).bytes(), ((AttributeValue.B) b).bytes());
            case N -> compareNumbers(((AttributeValue.N) a).text(), ((AttributeValue.N) b).text());
        };
    }

    /**
     * Orders strings by their UTF-8 bytes, unsigned; this is code point order, which
     * {@link String#compareTo} (UTF-16 order) breaks for characters beyond U+FFFF. An unpaired
     * surrogate sorts at its own code point, as its three-byte generalised UTF-8 form would.
     *
     * @param a the first string
     * @param b the second string
     * @return negative, zero or positive as {@code a}'s UTF-8 bytes sort before, with or after {@code b}'s
     */
    public static int compareUtf8(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /**
     * Orders byte arrays lexicographically as unsigned bytes; a prefix comes first.
     *
     * @param a the first byte array
     * @param b the second byte array
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public static int compareUnsigned(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    private static int compareNumbers(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        Optional<String> ca = DynamoNumber.tryNormalise(a);
        Optional<String> cb = DynamoNumber.tryNormalise(b);
        if (ca.isPresent() && cb.isPresent()) {
            return new BigDecimal(ca.get()).compareTo(new BigDecimal(cb.get()));
        }
        if (ca.isPresent() != cb.isPresent()) {
            return ca.isPresent() ? -1 : 1;
        }
        return compareUtf8(a, b);
    }

    private void requireKey(Key key) {
        if (key == null) {
            throw StorageException.validation("cannot order a null key");
        }
        if (sortType.isPresent() && key.sort().isEmpty()) {
            throw StorageException.validation("key " + key + " has no sort value for '" + schema.sortKey().get() + "'");
        }
        if (sortType.isEmpty() && key.sort().isPresent()) {
            throw StorageException.validation("key " + key + " has a sort value but the key schema of '"
                    + schema.partitionKey() + "' is hash-only");
        }
    }

    private static void requireType(ScalarType type, AttributeValue value) {
        if (value == null) {
            throw StorageException.validation("cannot order a null " + type + " key value");
        }
        if (!value.typeName().equals(type.name())) {
            throw StorageException.validation("expected a key value of type " + type + ", got "
                    + value.typeName() + " " + show(value.toString()));
        }
    }

    private static String show(String text) {
        return text.length() <= SHOWN_CHARS ? Checks.visible(text)
                : Checks.visible(text.substring(0, SHOWN_CHARS)) + "... (" + text.length() + " characters)";
    }

    @Override
    public String toString() {
        return "KeyOrder[" + schema.partitionKey() + ":" + partitionType
                + sortType.map(t -> ", " + schema.sortKey().get() + ":" + t).orElse("") + "]";
    }
}

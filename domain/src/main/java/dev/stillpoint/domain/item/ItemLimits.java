package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The checks an item passes before it is stored [D3a, D3], and the limits they apply. */
public final class ItemLimits {
    /** Largest item, names and values counted as {@link Item#sizeInBytes()} counts them. */
    public static final int MAX_ITEM_BYTES = 409_600;
    /** Largest partition key value. */
    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    /** Largest sort key value. */
    public static final int MAX_SORT_KEY_BYTES = 1024;

    private ItemLimits() {
    }

    /**
     * Checks a key given for a get or delete on {@code tableName} and returns it with its numbers
     * normalised: the same parts as the schema (a sort value exactly when the schema has a sort key),
     * each of its declared type and within its size limit, as {@link #validateForPut} checks them.
     * Any failure is a validation error naming the table, the schema or the value.
     *
     * @param tableName the table's name, for the message
     * @param key the key to check
     * @param schema the table's key schema
     * @param definitions the table's attribute definitions
     * @return the key with its numbers normalised
     */
    public static Key validateKey(String tableName, Key key, KeySchema schema,
                                  Collection<AttributeDefinition> definitions) {
        Checks.requireNonNull(key, "key");
        Checks.requireNonNull(schema, "key schema");
        if (schema.sortKey().isPresent() != key.sort().isPresent()) {
            throw StorageException.validation("the key of table '" + tableName + "' is '" + schema.partitionKey() + "'"
                    + schema.sortKey().map(s -> " + '" + s + "'").orElse(" (hash only)")
                    + "; the given key " + (key.sort().isPresent() ? "has" : "lacks") + " a sort value");
        }
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put(schema.partitionKey(), key.partition());
        key.sort().ifPresent(s -> attributes.put(schema.sortKey().orElseThrow(), s));
        return Key.of(validateForPut(Item.of(attributes), schema, definitions), schema);
    }

    /**
     * Checks {@code item} for a put and returns it with every number normalised (nested ones and set
     * members included): every key attribute present, of its declared type, not an empty S or B, within
     * its size limit; every number valid; the item within {@link #MAX_ITEM_BYTES}. Any failure is a
     * validation error naming the attribute and the value.
     *
     * @param item the item to check
     * @param schema the table's key schema
     * @param definitions the table's attribute definitions
     * @return the item with every number normalised
     */
    public static Item validateForPut(Item item, KeySchema schema, Collection<AttributeDefinition> definitions) {
        Checks.requireNonNull(item, "item");
        Checks.requireNonNull(schema, "key schema");
        Checks.requireNonNull(definitions, "attribute definitions");
        checkKeyType(item, schema.partitionKey(), definitions);
        schema.sortKey().ifPresent(name -> checkKeyType(item, name, definitions));

        Map<String, AttributeValue> normalised = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> normalised.put(name, normaliseNumbers(value, name)));
        Item result = new Item(normalised);

        checkKeySize(result, schema.partitionKey(), "partition", MAX_PARTITION_KEY_BYTES);
        schema.sortKey().ifPresent(name -> checkKeySize(result, name, "sort", MAX_SORT_KEY_BYTES));
        long size = result.sizeInBytes();
        if (size > MAX_ITEM_BYTES) {
            throw StorageException.validation("item size " + size + " bytes exceeds the limit of " + MAX_ITEM_BYTES
                    + " bytes (item with " + schema.partitionKey() + " = " + Checks.show(item.get(schema.partitionKey())) + ")");
        }
        return result;
    }

    private static void checkKeyType(Item item, String name, Collection<AttributeDefinition> definitions) {
        AttributeDefinition definition = definition(name, definitions);
        AttributeValue value = item.get(name);
        if (value == null) {
            throw StorageException.validation("item has no value for key attribute '" + name + "'");
        }
        if (!value.typeName().equals(definition.type().name())) {
            throw StorageException.validation("key attribute '" + name + "' is declared " + definition.type()
                    + " but the item holds " + Checks.show(value));
        }
        boolean empty = (value instanceof AttributeValue.S s && s.value().isEmpty())
                || (value instanceof AttributeValue.B b && b.length() == 0);
        if (empty) {
            throw StorageException.validation("key attribute '" + name + "' must not be an empty "
                    + value.typeName() + " value");
        }
    }

    private static AttributeDefinition definition(String name, Collection<AttributeDefinition> definitions) {
        AttributeDefinition found = null;
        for (AttributeDefinition definition : definitions) {
            if (definition != null && definition.name().equals(name)) {
                if (found != null && found.type() != definition.type()) {
                    throw StorageException.validation("key attribute '" + name + "' has conflicting definitions: "
                            + found.type() + " and " + definition.type());
                }
                found = definition;
            }
        }
        if (found == null) {
            throw StorageException.validation("key attribute '" + name + "' has no attribute definition");
        }
        return found;
    }

    private static void checkKeySize(Item item, String name, String role, int limit) {
        AttributeValue value = item.get(name);
        long size = Item.sizeOf(value);
        if (size > limit) {
            throw StorageException.validation(role + " key attribute '" + name + "' is " + size
                    + " bytes, over the limit of " + limit + ": " + Checks.show(value));
        }
    }

    private static AttributeValue normaliseNumbers(AttributeValue value, String path) {
        if (value instanceof AttributeValue.N n) {
            return new AttributeValue.N(normaliseNumber(n.text(), path));
        }
        if (value instanceof AttributeValue.NS ns) {
            Set<String> members = new LinkedHashSet<>();
            for (String member : ns.values()) {
                if (!members.add(normaliseNumber(member, path))) {
                    throw StorageException.validation("number set '" + path + "' holds the value of "
                            + Checks.show(member) + " twice");
                }
            }
            return new AttributeValue.NS(members);
        }
        if (value instanceof AttributeValue.L l) {
            List<AttributeValue> elements = new ArrayList<>(l.values().size());
            for (int i = 0; i < l.values().size(); i++) {
                elements.add(normaliseNumbers(l.values().get(i), path + "[" + i + "]"));
            }
            return new AttributeValue.L(elements);
        }
        if (value instanceof AttributeValue.M m) {
            Map<String, AttributeValue> entries = new LinkedHashMap<>();
            m.values().forEach((name, element) -> entries.put(name, normaliseNumbers(element, path + "." + name)));
            return new AttributeValue.M(entries);
        }
        return value;
    }

    private static String normaliseNumber(String text, String path) {
        return DynamoNumber.tryNormalise(text).orElseThrow(() -> StorageException.validation("attribute '" + path
                + "' holds an invalid number " + Checks.show(text) + ": " + DynamoNumber.problem(text)));
    }
}

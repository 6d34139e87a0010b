package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DynamoDB's item rules [D3a, D3, V1], stated once: the checks an item passes before it is stored, and
 * the limits they apply. PutItem, BatchWriteItem, restore's up-front check and the export's check all
 * reach them through {@code ItemRules.forPut} [V2]; each limit cites the developer-guide page it comes from.
 */
public final class ItemLimits {
    /**
     * Largest item, names and values counted as {@link Item#sizeInBytes()} counts them: "The maximum item
     * size in DynamoDB is 400 KB, which includes both attribute name binary length (UTF-8 length) and
     * attribute value lengths" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-items),
     * with 1 KB = 1024 bytes (same page).
     */
    public static final int MAX_ITEM_BYTES = 409_600;
    /**
     * Largest partition key value, of the table and of every index: "The maximum length of a partition key
     * value is 2048 bytes" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-partition-sort-keys).
     */
    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    /**
     * Largest sort key value, of the table and of every index: "The maximum length of a sort key value is
     * 1024 bytes" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-partition-sort-keys).
     */
    public static final int MAX_SORT_KEY_BYTES = 1024;
    /**
     * Deepest value: "DynamoDB supports nested attributes up to 32 levels deep"
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-attributes).
     * The page does not say how levels are counted; DynamoDB counts a top-level attribute's value as
     * level 1 and every element of an L or M one level below its container, so an item nests at most 31
     * L or M values around a value at level 32: 31 wrappers around a scalar are accepted, 32 refused
     * (measured against DynamoDB by dynoxide, https://docs.rs/crate/dynoxide-rs/latest/source/tests/nesting_depth.rs,
     * "accepts 31 map-wraps, rejects 32", counting "the top-level attribute as level 1").
     */
    public static final int MAX_NESTING_LEVELS = 32;
    /**
     * DynamoDB's answer to a partition key value over {@link #MAX_PARTITION_KEY_BYTES}, its missing space
     * included (as recorded against DynamoDB by dynalite's tests, https://github.com/mhart/dynalite).
     */
    static final String HASH_KEY_REFUSAL = "One or more parameter values were invalid: Size of hashkey has exceeded"
            + " the maximum size limit of2048 bytes";
    /** DynamoDB's answer to a sort key value over {@link #MAX_SORT_KEY_BYTES} (same source). */
    static final String RANGE_KEY_REFUSAL = "One or more parameter values were invalid: Aggregated size of all range"
            + " keys has exceeded the size limit of 1024 bytes";
    /** DynamoDB's own wording for a value nested too deep (see {@link #MAX_NESTING_LEVELS}). */
    static final String NESTING_REFUSAL = "Nesting Levels have exceeded supported limits: Attributes in the item"
            + " have nested levels beyond supported limit";

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
        return Key.of(validateForPut(key.asItem(schema), schema, definitions), schema);
    }

    /**
     * Checks {@code item} for a put and returns it with every number normalised (nested ones and set
     * members included): every key attribute present, of its declared type, not an empty S or B, within
     * its size limit; every number valid; no set empty and no BS member twice, at any depth; no value
     * deeper than {@link #MAX_NESTING_LEVELS}; the item within {@link #MAX_ITEM_BYTES}. Any failure is a
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

        // Copied only once a value changes (a number not canonical): most items are their own normal form.
        Map<String, AttributeValue> normalised = null;
        for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
            AttributeValue value = checked(e.getValue(), e.getKey(), 1);
            if (value != e.getValue() && normalised == null) {
                normalised = new LinkedHashMap<>(item.attributes());
            }
            if (normalised != null) {
                normalised.put(e.getKey(), value);
            }
        }
        Item result = normalised == null ? item : new Item(normalised);

        checkKeySize(result, schema.partitionKey(), "partition", MAX_PARTITION_KEY_BYTES, HASH_KEY_REFUSAL);
        schema.sortKey().ifPresent(name -> checkKeySize(result, name, "sort", MAX_SORT_KEY_BYTES, RANGE_KEY_REFUSAL));
        long size = result.sizeInBytes();
        if (size > MAX_ITEM_BYTES) {
            throw StorageException.validation("Item size has exceeded the maximum allowed size: item size " + size
                    + " bytes exceeds the limit of " + MAX_ITEM_BYTES
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
            // CreateTable refuses a key without a definition, so only a damaged stored description lacks one:
            // not the request's fault.
            throw StorageException.internal("the table's description has no attribute definition for its key"
                    + " attribute '" + name + "' (a damaged catalog entry)", null);
        }
        return found;
    }

    private static void checkKeySize(Item item, String name, String role, int limit, String dynamoWording) {
        AttributeValue value = item.get(name);
        long size = Item.sizeOf(value);
        if (size > limit) {
            throw StorageException.validation(dynamoWording + ": " + role + " key attribute '" + name + "' is " + size
                    + " bytes, over the limit of " + limit + ": " + Checks.show(value));
        }
    }

    /**
     * Where a nested value sits, for a message only: {@code parent[i]} or {@code parent.name}, made into text
     * when a refusal names it, not for every value checked.
     */
    private record Path(Object parent, Object step, boolean element) {
        @Override
        public String toString() {
            return element ? parent + "[" + step + "]" : parent + "." + step;
        }
    }

    /**
     * {@code value}, found at {@code path} on nesting level {@code level} (a top-level attribute's value is
     * level 1), checked against the value rules and with its numbers normalised: the same instance when
     * nothing in it changes.
     */
    private static AttributeValue checked(AttributeValue value, Object path, int level) {
        if (level > MAX_NESTING_LEVELS) {
            // DynamoDB's wording, then which value: the message must name it [R6].
            throw StorageException.validation(NESTING_REFUSAL + " (attribute '" + path + "' is at level " + level
                    + "; at most " + MAX_NESTING_LEVELS + " levels, a top-level attribute's value being level 1)");
        }
        if (value instanceof AttributeValue.N n) {
            String canonical = normaliseNumber(n.text(), path);
            return canonical.equals(n.text()) ? value : new AttributeValue.N(canonical);
        }
        if (value instanceof AttributeValue.NS ns) {
            requireMembers(ns.values().isEmpty(), "An number set  may not be empty", path);
            if (ns.values().stream().allMatch(DynamoNumber::isCanonical)) {
                return value; // distinct canonical texts are distinct numbers
            }
            Set<String> members = new LinkedHashSet<>();
            for (String member : ns.values()) {
                if (!members.add(normaliseNumber(member, path))) {
                    throw StorageException.validation("number set '" + path + "' holds the value of "
                            + Checks.show(member) + " twice");
                }
            }
            return new AttributeValue.NS(members);
        }
        if (value instanceof AttributeValue.SS ss) {
            requireMembers(ss.values().isEmpty(), "An string set  may not be empty", path);
            return value;
        }
        if (value instanceof AttributeValue.BS bs) {
            requireMembers(bs.size() == 0, "Binary sets should not be empty", path);
            requireDistinct(bs, path);
            return value;
        }
        if (value instanceof AttributeValue.L l) {
            List<AttributeValue> values = l.values();
            List<AttributeValue> elements = null;
            for (int i = 0; i < values.size(); i++) {
                AttributeValue element = checked(values.get(i), new Path(path, i, true), level + 1);
                if (element != values.get(i) && elements == null) {
                    elements = new ArrayList<>(values.subList(0, i));
                }
                if (elements != null) {
                    elements.add(element);
                }
            }
            return elements == null ? value : new AttributeValue.L(elements);
        }
        if (value instanceof AttributeValue.M m) {
            Map<String, AttributeValue> entries = null;
            for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                AttributeValue element = checked(e.getValue(), new Path(path, e.getKey(), false), level + 1);
                if (element != e.getValue() && entries == null) {
                    entries = new LinkedHashMap<>(m.values());
                }
                if (entries != null) {
                    entries.put(e.getKey(), element);
                }
            }
            return entries == null ? value : new AttributeValue.M(entries);
        }
        return value;
    }

    /**
     * An empty set is refused in DynamoDB's words: "DynamoDB does not support empty sets"
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.SetTypes);
     * DynamoDB answers "One or more parameter values were invalid: An string set  may not be empty" (its
     * double space included), "An number set  may not be empty" and "Binary sets should not be empty".
     */
    private static void requireMembers(boolean empty, String dynamoWording, Object path) {
        if (empty) {
            throw StorageException.validation("One or more parameter values were invalid: " + dynamoWording
                    + " (attribute '" + path + "')");
        }
    }

    /** "Each value within a set must be unique" (the data-types page above); SS and NS are sets by construction. */
    private static void requireDistinct(AttributeValue.BS bs, Object path) {
        Set<ByteBuffer> seen = new HashSet<>();
        for (byte[] member : bs.values()) {
            if (!seen.add(ByteBuffer.wrap(member))) {
                throw StorageException.validation("One or more parameter values were invalid: Input collection of type BS"
                        + " contains duplicates (attribute '" + path + "' holds "
                        + Checks.show(Base64.getEncoder().encodeToString(member)) + " twice)");
            }
        }
    }

    private static String normaliseNumber(String text, Object path) {
        return DynamoNumber.tryNormalise(text).orElseThrow(() -> StorageException.validation(numberRefusal(text)
                + ": attribute '" + path + "' holds an invalid number " + Checks.show(text) + ": " + DynamoNumber.problem(text)));
    }

    /**
     * DynamoDB's answer to a number it refuses, by the rule broken: "Numbers can have up to 38 digits of
     * precision" and a magnitude from 1E-130 to 9.9999999999999999999999999999999999999E+125
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number);
     * the wording as DynamoDB answers (recorded by dynalite's tests).
     */
    private static String numberRefusal(String text) {
        String problem = DynamoNumber.problem(text);
        if (problem.contains("significant digits")) {
            return "Attempting to store more than 38 significant digits in a Number";
        }
        if (problem.contains("magnitude above")) {
            return "Number overflow. Attempting to store a number with magnitude larger than supported range";
        }
        if (problem.contains("magnitude below")) {
            return "Number underflow. Attempting to store a number with magnitude smaller than supported range";
        }
        return "A value provided cannot be converted into a number";
    }
}

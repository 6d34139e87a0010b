package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Utf8Text;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.TableDescription;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The item rules of PutItem, GetItem and DeleteItem, applied against the table's definition as the
 * storage unit of work read it: the table key [D3a], every index key the item carries [R3], names
 * [R2], well-formed strings [R4], numbers [D3] and the item size.
 */
public final class ItemRules {

    private ItemRules() {
    }

    /**
     * Checks {@code item} for a put into {@code table} and says where it goes; a validation error otherwise.
     *
     * @param table the table's definition as the unit of work read it
     * @param item the item to put
     * @return the item's primary key, the item and its key in each index that holds it
     */
    public static ItemWrite forPut(TableDescription table, Item item) {
        if (item == null) {
            throw StorageException.validation("item to put into table '" + table.tableName() + "' is required, got null");
        }
        for (Map.Entry<String, AttributeValue> attribute : item.attributes().entrySet()) {
            String name = attribute.getKey();
            // The walk that names the place is run only when something is wrong: on the way through, building
            // each path and message it might need cost an export's check more than the decode did.
            if (!AttributeNames.isValidName(name) || !wellFormed(attribute.getValue())) {
                AttributeNames.requireName(name, "an item of table '" + table.tableName() + "'");
                requireWellFormed(attribute.getValue(), name);
            }
        }
        Item valid = ItemLimits.validateForPut(item, table.keySchema(), table.attributeDefinitions());
        Map<String, Key> indexKeys = new LinkedHashMap<>();
        for (GlobalSecondaryIndex gsi : table.globalSecondaryIndexes()) {
            // A DELETING index takes no new entries; its relation goes with it.
            if (gsi.status() != IndexStatus.DELETING) {
                indexKey(table, gsi.name(), gsi.keySchema(), valid, true).ifPresent(k -> indexKeys.put(gsi.name(), k));
            }
        }
        for (LocalSecondaryIndex lsi : table.localSecondaryIndexes()) {
            indexKey(table, lsi.name(), lsi.keySchema(), valid, true).ifPresent(k -> indexKeys.put(lsi.name(), k));
        }
        return new ItemWrite(Key.of(valid, table.keySchema()), valid, indexKeys);
    }

    /**
     * Checks the key a GetItem, DeleteItem or batch DeleteRequest gave for {@code table} [V3] and returns
     * it as the table's {@link Key}, numbers normalised. The request must name exactly the table's key
     * attributes, each with its declared type: a missing, an extra or a mistyped attribute is refused
     * with DynamoDB's wording, "The provided key element does not match the schema", followed by what the
     * table declares and what the request gave. Then the values pass the key checks of a put (not an
     * empty S or B, within the size limits, numbers valid, strings well-formed).
     *
     * @param table the table's definition as the unit of work read it
     * @param key the key as the request gave it
     * @return the key, checked, with numbers normalised
     */
    public static Key forKey(TableDescription table, RequestKey key) {
        if (key == null) {
            throw StorageException.validation("key of an item of table '" + table.tableName() + "' is required, got null");
        }
        // DynamoDB answers a key with a missing, an extra, a misnamed or a mistyped attribute with this one
        // message (https://repost.aws/knowledge-center/dynamodb-provided-key-element-error); the GetItem and
        // DeleteItem references ask for exactly the primary key's attributes, "For a composite primary key, you
        // must provide values for both the partition key and the sort key"
        // (https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-get-item-request/key.html).
        KeySchema schema = table.keySchema();
        Map<String, AttributeValue> given = key.attributes();
        boolean sameNames = given.size() == (schema.sortKey().isPresent() ? 2 : 1)
                && given.containsKey(schema.partitionKey())
                && schema.sortKey().map(given::containsKey).orElse(true);
        if (!sameNames) {
            throw keyMismatch(table, given, "");
        }
        for (Map.Entry<String, AttributeValue> e : given.entrySet()) {
            Optional<ScalarType> declared = table.definition(e.getKey()).map(AttributeDefinition::type);
            if (declared.isPresent() && !declared.get().name().equals(e.getValue().typeName())) {
                throw keyMismatch(table, given, "; '" + e.getKey() + "' is declared " + declared.get().name()
                        + " but the request gave " + Shown.value(e.getValue()));
            }
        }
        Key positional = schema.sortKey()
                .map(sort -> Key.of(given.get(schema.partitionKey()), given.get(sort)))
                .orElseGet(() -> Key.of(given.get(schema.partitionKey())));
        Key valid = ItemLimits.validateKey(table.tableName(), positional, schema, table.attributeDefinitions());
        requireWellFormed(valid.partition(), schema.partitionKey());
        valid.sort().ifPresent(s -> requireWellFormed(s, schema.sortKey().orElseThrow()));
        return valid;
    }

    private static StorageException keyMismatch(TableDescription table, Map<String, AttributeValue> given, String detail) {
        StringBuilder declared = new StringBuilder();
        KeySchema schema = table.keySchema();
        declared.append(declaredName(table, schema.partitionKey()));
        schema.sortKey().ifPresent(s -> declared.append(", ").append(declaredName(table, s)));
        StringBuilder gave = new StringBuilder();
        given.forEach((name, value) -> gave.append(gave.length() == 0 ? "" : ", ")
                .append(Shown.text(name)).append(' ').append(value.typeName()));
        return StorageException.validation("The provided key element does not match the schema: table '"
                + table.tableName() + "' has the key " + declared + "; the request gave "
                + (given.isEmpty() ? "no attributes" : gave.toString()) + detail);
    }

    /** {@code 'pk' S}: a key attribute with its declared type, as the refusal shows it. */
    private static String declaredName(TableDescription table, String name) {
        return Shown.text(name) + table.definition(name).map(d -> " " + d.type().name()).orElse("");
    }

    /**
     * The key of a stored item under index {@code indexName} of {@code table}, for a backfill or for
     * finding an earlier version's entry: empty when the item lacks a key attribute of the index or
     * holds it with another type, empty, or over the index key's size limit (such an item stays out of the
     * index, as DynamoDB leaves it out of a GSI it builds).
     *
     * @param table the table's definition
     * @param indexName the index
     * @param item a stored item of the table
     * @return the item's key in the index, or empty when the item stays out of it
     */
    public static Optional<Key> entryKeyOfStoredItem(TableDescription table, String indexName, Item item) {
        KeySchema schema = table.globalSecondaryIndexes().stream().filter(g -> g.name().equals(indexName))
                .map(GlobalSecondaryIndex::keySchema).findFirst()
                .or(() -> table.localSecondaryIndexes().stream().filter(l -> l.name().equals(indexName))
                        .map(LocalSecondaryIndex::keySchema).findFirst())
                .orElseThrow(() -> StorageException.validation("table '" + table.tableName() + "' has no index '"
                        + indexName + "'"));
        return indexKey(table, indexName, schema, item, false);
    }

    private static Optional<Key> indexKey(TableDescription table, String indexName, KeySchema schema, Item item,
                                          boolean strict) {
        Optional<AttributeValue> pk = indexValue(table, indexName, schema.partitionKey(), true, item, strict);
        // The sort key is checked even when the partition key is absent: a write carrying either key attribute
        // in violation of the index's key schema is refused, whether or not the item enters the index.
        Optional<AttributeValue> sk = schema.sortKey()
                .flatMap(attribute -> indexValue(table, indexName, attribute, false, item, strict));
        if (pk.isEmpty()) {
            return Optional.empty();
        }
        if (schema.sortKey().isEmpty()) {
            return Optional.of(Key.of(pk.get()));
        }
        return sk.map(v -> Key.of(pk.get(), v));
    }

    /**
     * The value of an index key attribute, when the item may carry it into the index. An index key violation
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.OnlineOps.ViolationDetection.html):
     * a type other than the declared one; "An attribute value from the table exceeds the maximum length for
     * an index key attribute. The maximum length of a partition key is 2048 bytes, and the maximum length of
     * a sort key is 1024 bytes"; an empty S or B. A backfill leaves such an item out of the index ("the
     * items remain in the table, but the index doesn't have a corresponding entry"); a write is refused
     * ("all write operations to items that violate the new index's key schema are rejected").
     */
    private static Optional<AttributeValue> indexValue(TableDescription table, String indexName, String attribute,
                                                       boolean partition, Item item, boolean strict) {
        int maxBytes = partition ? ItemLimits.MAX_PARTITION_KEY_BYTES : ItemLimits.MAX_SORT_KEY_BYTES;
        Optional<AttributeValue> value = item.find(attribute);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        ScalarType declared = table.definition(attribute).map(AttributeDefinition::type)
                .orElseThrow(() -> StorageException.validation("index '" + indexName + "' of table '" + table.tableName()
                        + "' uses key attribute '" + attribute + "', which has no attribute definition"));
        AttributeValue v = value.get();
        boolean wrongType = !v.typeName().equals(declared.name());
        boolean empty = (v instanceof AttributeValue.S s && s.value().isEmpty())
                || (v instanceof AttributeValue.B b && b.length() == 0);
        long size = wrongType || empty ? 0 : Item.sizeOf(v);
        if (!wrongType && !empty && size <= maxBytes) {
            return value;
        }
        if (!strict) {
            return Optional.empty();
        }
        if (size > maxBytes) {
            throw StorageException.validation("One or more parameter values were invalid: attribute '" + attribute
                    + "' is a " + (partition ? "partition" : "sort") + " key of index '"
                    + indexName + "' of table '" + table.tableName() + "' and its value is " + size
                    + " bytes, over the index key limit of " + maxBytes + " bytes");
        }
        if (wrongType) {
            // DynamoDB's words (as dynalite's tests record them against DynamoDB), then the table's name.
            throw StorageException.validation("One or more parameter values were invalid: Type mismatch for Index Key "
                    + attribute + " Expected: " + declared.name() + " Actual: " + v.typeName() + " IndexName: " + indexName
                    + " (attribute '" + attribute + "' is a key of index '" + indexName + "' of table '"
                    + table.tableName() + "', declared " + declared.name() + ", but the item holds a value of type "
                    + v.typeName() + ")");
        }
        throw StorageException.validation("one or more parameter values are not valid: attribute '" + attribute
                + "' is a key of index '" + indexName + "' of table '" + table.tableName() + "', declared "
                + declared.name() + ", and must not be an empty " + declared.name() + " value");
    }

    /** Whether every string inside {@code value} is well-formed and every nested name valid, as below, naming nothing. */
    private static boolean wellFormed(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return Utf8Text.firstUnpairedSurrogate(s.value()) < 0;
        } else if (value instanceof AttributeValue.SS ss) {
            for (String member : ss.values()) {
                if (Utf8Text.firstUnpairedSurrogate(member) >= 0) {
                    return false;
                }
            }
        } else if (value instanceof AttributeValue.L l) {
            for (AttributeValue element : l.values()) {
                if (!wellFormed(element)) {
                    return false;
                }
            }
        } else if (value instanceof AttributeValue.M m) {
            for (Map.Entry<String, AttributeValue> element : m.values().entrySet()) {
                if (!AttributeNames.isValidName(element.getKey()) || !wellFormed(element.getValue())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Every string inside {@code value} (S, SS members, nested names and values) is well-formed [R4]. */
    private static void requireWellFormed(AttributeValue value, String path) {
        if (value instanceof AttributeValue.S s) {
            WellFormedText.require(s.value(), "attribute '" + path + "'");
        } else if (value instanceof AttributeValue.SS ss) {
            for (String member : ss.values()) {
                WellFormedText.require(member, "a member of string set '" + path + "'");
            }
        } else if (value instanceof AttributeValue.L l) {
            for (int i = 0; i < l.values().size(); i++) {
                requireWellFormed(l.values().get(i), path + "[" + i + "]");
            }
        } else if (value instanceof AttributeValue.M m) {
            m.values().forEach((name, element) -> {
                AttributeNames.requireName(name, "map '" + path + "'");
                requireWellFormed(element, path + "." + name);
            });
        }
    }
}

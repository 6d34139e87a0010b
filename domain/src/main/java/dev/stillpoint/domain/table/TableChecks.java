package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Null checks, copies and the key-definition rules shared by the descriptions and requests. */
final class TableChecks {
    private TableChecks() {
    }

    static <T> T required(T value, String what) {
        if (value == null) {
            throw StorageException.validation(what + " is required");
        }
        return value;
    }

    static void requiredText(String value, String what) {
        required(value, what);
        if (value.isEmpty()) {
            // Said in words: an empty value printed after "got: " read as a message cut short [R6].
            throw StorageException.validation(what + " must not be empty, got an empty string");
        }
    }

    static void nonNegative(long value, String what) {
        if (value < 0) {
            throw StorageException.validation(what + " must not be negative, got: " + value);
        }
    }

    /** An unmodifiable copy; a missing list reads as empty, a missing element is refused. */
    static <T> List<T> copy(List<T> values, String what) {
        if (values == null) {
            return List.of();
        }
        List<T> copy = new ArrayList<>(values.size());
        for (T value : values) {
            copy.add(required(value, what));
        }
        return Collections.unmodifiableList(copy);
    }

    static <T> Optional<T> orEmpty(Optional<T> value) {
        return value == null ? Optional.empty() : value;
    }

    /** The definitions by name, refusing a name defined twice (the key order would be ambiguous). */
    static Map<String, ScalarType> definitionsByName(List<AttributeDefinition> definitions) {
        Map<String, ScalarType> byName = new LinkedHashMap<>();
        for (AttributeDefinition definition : definitions) {
            if (byName.put(definition.name(), definition.type()) != null) {
                throw StorageException.validation(
                        "attribute '" + definition.name() + "' is defined more than once");
            }
        }
        return byName;
    }

    /** The most non-key attributes one projection names. */
    static final int MAX_NON_KEY_ATTRIBUTES = 20;

    /** The longest name of a projected attribute, in bytes of UTF-8, as a key attribute's [R2]. */
    static final int MAX_PROJECTED_NAME_BYTES = 255;

    /** Refuses an index name used twice across the global, local and vector indexes of one table. */
    static void requireDistinctIndexNames(String tableName, List<String> indexNames) {
        Set<String> seen = new HashSet<>();
        for (String name : indexNames) {
            if (!seen.add(name)) {
                throw StorageException.validation(
                        "table '" + tableName + "' has more than one index named '" + name + "'");
            }
        }
    }

    static void requireAtMost(int count, int limit, String what, String tableName) {
        if (count > limit) {
            throw StorageException.validation("table '" + tableName + "' has " + count + " " + what
                    + ", more than the limit of " + limit);
        }
    }

    /**
     * Refuses what DynamoDB refuses of a table's projections when they are created (API reference, Projection,
     * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html): more than
     * {@value #MAX_NON_KEY_ATTRIBUTES} non-key attributes in one projection ("Maximum number of 20 items"), a
     * name over {@value #MAX_PROJECTED_NAME_LENGTH} characters, and more than {@code limit} summed over the
     * table's indexes, a name projected into two indexes counting twice. Checked where indexes are created, not
     * where a stored definition is read, so a table made before these checks still loads.
     */
    static void requireProjectionsWithinLimits(String tableName, List<Projection> projections, int limit) {
        int total = 0;
        for (Projection p : projections) {
            List<String> names = p.nonKeyAttributes();
            if (names.size() > MAX_NON_KEY_ATTRIBUTES) {
                throw StorageException.validation("a projection of table '" + tableName + "' names " + names.size()
                        + " non-key attributes, more than the limit of " + MAX_NON_KEY_ATTRIBUTES + " for one index");
            }
            for (String name : names) {
                long length = Item.utf8Length(name);
                if (length > MAX_PROJECTED_NAME_BYTES) {
                    throw StorageException.validation("projected attribute name '"
                            + name.substring(0, name.offsetByCodePoints(0, Math.min(32, name.codePointCount(0, name.length()))))
                            + "'... of table '" + tableName + "' is " + length + " bytes of UTF-8, more than the limit of "
                            + MAX_PROJECTED_NAME_BYTES);
                }
            }
            total += names.size();
        }
        if (total > limit) {
            throw StorageException.validation("the secondary indexes of table '" + tableName + "' project " + total
                    + " non-key attributes in all, more than the limit of " + limit + " (an attribute projected into"
                    + " two indexes counts twice)");
        }
    }

    /**
     * Refuses an INCLUDE projection that names no attribute, as DynamoDB refuses it when the index is created ("ProjectionType
     * is INCLUDE, but NonKeyAttributes is not specified"; API reference, Projection: NonKeyAttributes holds "Minimum number of
     * 1 item"); KEYS_ONLY is the projection of the keys alone. Checked where an index is created, so a stored one still loads.
     */
    static void requireIncludeNamesAnAttribute(String owner, Projection projection) {
        if (projection.type() == ProjectionType.INCLUDE && projection.nonKeyAttributes().isEmpty()) {
            throw StorageException.validation("the INCLUDE projection of " + owner + " names no non-key attribute: INCLUDE"
                    + " takes 1 to " + MAX_NON_KEY_ATTRIBUTES + " of them, KEYS_ONLY projects the keys alone");
        }
    }

    static Set<String> keyAttributes(KeySchema keySchema) {
        return new LinkedHashSet<>(keySchema.attributeNames());
    }

    /** Refuses a key attribute without a definition, naming the attribute and whose key it is. */
    static void requireDefined(KeySchema keySchema, Map<String, ScalarType> definitions, String owner) {
        for (String attribute : keyAttributes(keySchema)) {
            if (!definitions.containsKey(attribute)) {
                throw StorageException.validation("key attribute '" + attribute + "' of " + owner
                        + " has no attribute definition");
            }
        }
    }

    /** A local index shares the table's partition key and needs a sort key on both sides. */
    static void requireLocalIndexShape(String tableName, KeySchema tableKey, LocalSecondaryIndex lsi) {
        if (tableKey.sortKey().isEmpty()) {
            throw StorageException.validation("table '" + tableName + "' has no sort key, so it cannot have local"
                    + " secondary index '" + lsi.name() + "'");
        }
        if (!lsi.keySchema().partitionKey().equals(tableKey.partitionKey())) {
            throw StorageException.validation("local secondary index '" + lsi.name() + "' has partition key '"
                    + lsi.keySchema().partitionKey() + "', not the table's '" + tableKey.partitionKey() + "'");
        }
        if (lsi.keySchema().sortKey().isEmpty()) {
            throw StorageException.validation("local secondary index '" + lsi.name() + "' needs a sort key");
        }
    }

    static String table(String tableName) {
        return "table '" + tableName + "'";
    }

    static String gsi(String indexName) {
        return "global secondary index '" + indexName + "'";
    }

    static String lsi(String indexName) {
        return "local secondary index '" + indexName + "'";
    }
}

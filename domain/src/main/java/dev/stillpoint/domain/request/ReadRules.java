package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import java.util.Optional;

/**
 * What a read may hand back. GetItem asks for one key and DynamoDB answers with the item of that key, so an
 * item found under the key must carry it: the export refuses an item whose key attributes are not its row's
 * [E1], and GetItem refuses it too, rather than hand a client an item of another key (a stored text edited
 * by hand, or a backend's key encoding at fault).
 */
public final class ReadRules {

    private ReadRules() {
    }

    /**
     * Checks that {@code found}, the item a backend read under {@code key}, carries that key: each key attribute
     * present, of its declared type, and equal to the key's value as DynamoDB compares keys (numbers by value
     * [V4]). The item is otherwise handed back as stored [S4].
     *
     * @param table the table's definition
     * @param key the key the read asked for, as {@link ItemRules#forKey} checked it
     * @param found the item the backend read under it
     * @return {@code found}
     * @throws StorageException Internal, naming the table, the key asked for and the attribute at fault, when
     *         the item carries another key
     */
    public static Item forGet(TableDescription table, Key key, Item found) {
        KeySchema schema = table.keySchema();
        Optional<String> fault = fault(table, schema.partitionKey(), key.partition(), found)
                .or(() -> schema.sortKey().flatMap(sort -> fault(table, sort, key.sort().orElseThrow(), found)));
        if (fault.isPresent()) {
            throw StorageException.internal("table '" + table.tableName() + "' holds an item under the key "
                    + shown(schema, key) + " whose " + fault.get() + ": the item is not returned, because a stored"
                    + " item's key attributes must be the key it is stored under", null);
        }
        return found;
    }

    /** What is wrong with {@code found}'s key attribute {@code name}, asked for as {@code asked}; empty when nothing. */
    private static Optional<String> fault(TableDescription table, String name, AttributeValue asked, Item found) {
        AttributeValue held = found.get(name);
        if (held == null) {
            return Optional.of("key attribute " + Shown.text(name) + " is missing");
        }
        ScalarType type = table.definition(name).map(AttributeDefinition::type).orElseThrow(() ->
                StorageException.internal("table '" + table.tableName() + "' has no attribute definition for its key"
                        + " attribute " + Shown.text(name), null));
        if (!held.typeName().equals(type.name()) || KeyOrder.compareValues(type, held, asked) != 0) {
            return Optional.of("key attribute " + Shown.text(name) + " is " + Shown.value(held));
        }
        return Optional.empty();
    }

    private static String shown(KeySchema schema, Key key) {
        String partition = Shown.text(schema.partitionKey()) + " = " + Shown.value(key.partition());
        return key.sort().map(s -> partition + ", " + Shown.text(schema.sortKey().orElseThrow()) + " = " + Shown.value(s))
                .orElse(partition);
    }
}

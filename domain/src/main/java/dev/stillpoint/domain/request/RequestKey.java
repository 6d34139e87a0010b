package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code Key} map of a GetItem, a DeleteItem or a batch DeleteRequest exactly as the request
 * gives it: attribute names to values, nothing dropped and nothing checked yet. The rules
 * ({@link ItemRules#forKey}) compare it with the table's key schema [V3]: the request must carry
 * exactly the key attributes, each with its declared type, or it is refused with DynamoDB's "The
 * provided key element does not match the schema". The API takes this type, not a positional
 * {@link Key}, so a server cannot lose an extra or misnamed attribute on its way in.
 *
 * @param attributes the request's key attributes by name, in the request's order
 */
public record RequestKey(Map<String, AttributeValue> attributes) {

    /**
     * Copies the map, refusing a null map, name or value (a request that carries no key at all).
     *
     * @param attributes the request's key attributes by name
     */
    public RequestKey {
        if (attributes == null) {
            throw StorageException.validation("the request's key is required, got null");
        }
        Map<String, AttributeValue> copy = new LinkedHashMap<>();
        attributes.forEach((name, value) -> {
            if (name == null || value == null) {
                throw StorageException.validation("the request's key holds a null "
                        + (name == null ? "attribute name" : "value for '" + name + "'"));
            }
            copy.put(name, value);
        });
        attributes = Collections.unmodifiableMap(copy);
    }

    /**
     * A request key of one attribute (a hash-only table's key, when the name is its partition key).
     *
     * @param name the attribute's name
     * @param value its value
     * @return the request key
     */
    public static RequestKey of(String name, AttributeValue value) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put(name, value);
        return new RequestKey(attributes);
    }

    /**
     * A request key of two attributes (a composite table's key, when the names are its key's).
     *
     * @param name the first attribute's name
     * @param value its value
     * @param secondName the second attribute's name
     * @param secondValue its value
     * @return the request key
     */
    public static RequestKey of(String name, AttributeValue value, String secondName, AttributeValue secondValue) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put(name, value);
        attributes.put(secondName, secondValue);
        return new RequestKey(attributes);
    }

    /**
     * The request key that names {@code key}'s values as {@code schema} does: a checked key handed back.
     *
     * @param key the checked key
     * @param schema the table's key schema
     * @return the request key
     */
    public static RequestKey named(Key key, KeySchema schema) {
        return new RequestKey(key.asItem(schema).attributes());
    }
}

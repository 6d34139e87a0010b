package dev.stillpoint.backup;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import java.util.List;

/**
 * The key a caller gives for an export that carries no table definition (DynamoDB's layout), such as
 * {@code pk:S,sk:N}: what every item is checked against [E3] and the new table is created with [E4].
 *
 * @param schema      the key's attributes
 * @param definitions their types
 */
public record ExportKey(KeySchema schema, List<AttributeDefinition> definitions) {

    /**
     * The key as a user writes it with {@code --key}: {@code pk:S} or {@code pk:S,sk:N} [V5]; two keys
     * are the same key exactly when these agree (names and types).
     *
     * @return the key's names and types
     */
    public String shown() {
        StringBuilder out = new StringBuilder();
        for (String name : schema.sortKey().map(s -> List.of(schema.partitionKey(), s)).orElse(List.of(schema.partitionKey()))) {
            out.append(out.length() == 0 ? "" : ",").append(name).append(':')
                    .append(definitions.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow().type().name());
        }
        return out.toString();
    }

    /** Copies the list; refuses a missing schema or a key attribute without a type. */
    public ExportKey {
        if (schema == null) {
            throw new IllegalArgumentException("a key schema is required");
        }
        definitions = List.copyOf(definitions);
        for (String name : schema.sortKey().map(s -> List.of(schema.partitionKey(), s))
                .orElse(List.of(schema.partitionKey()))) {
            if (definitions.stream().noneMatch(d -> d.name().equals(name))) {
                throw new IllegalArgumentException("key attribute '" + name + "' has no type");
            }
        }
    }
}

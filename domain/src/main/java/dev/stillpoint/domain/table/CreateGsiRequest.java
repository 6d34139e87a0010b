package dev.stillpoint.domain.table;

import dev.stillpoint.domain.key.AttributeDefinition;
import java.util.List;

/**
 * UpdateTable's Create of a global secondary index: the index, and the attribute definitions the
 * request brings for its key. Whether they fit the table is decided against the table, by
 * {@link TableDescription#applyCreateGsi}; the index's status and counts in the request are ignored.
 */
public record CreateGsiRequest(GlobalSecondaryIndex index, List<AttributeDefinition> newDefinitions) {
    /**
     * Refuses a missing index and copies the definitions, refusing one named twice.
     *
     * @param index the index to create
     * @param newDefinitions the definitions its key attributes need, beyond the table's
     */
    public CreateGsiRequest {
        TableChecks.required(index, "global secondary index to create");
        newDefinitions = TableChecks.copy(newDefinitions, "attribute definition");
        TableChecks.definitionsByName(newDefinitions);
    }

    /**
     * A request for a new index with {@code newDefinitions} for its key.
     *
     * @param index the index to create
     * @param newDefinitions the definitions its key attributes need, beyond the table's
     * @return the request
     */
    public static CreateGsiRequest of(GlobalSecondaryIndex index, AttributeDefinition... newDefinitions) {
        return new CreateGsiRequest(index, List.of(newDefinitions));
    }
}

package dev.stillpoint.domain.table;

import dev.stillpoint.domain.key.AttributeDefinition;
import java.util.List;

/**
 * UpdateTable's Create of a global secondary index: the index, and the request's attribute definitions,
 * which name every key attribute of the index (checked by {@code TableRules.requireCreatable}). What they
 * add to the table is decided against it, by {@link TableDescription#applyCreateGsi}; the index's status
 * and counts in the request are ignored.
 */
public record CreateGsiRequest(GlobalSecondaryIndex index, List<AttributeDefinition> newDefinitions) {
    /**
     * Refuses a missing index and copies the definitions, refusing one named twice.
     *
     * @param index the index to create
     * @param newDefinitions the request's attribute definitions: every key attribute of the index
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
     * @param newDefinitions the request's attribute definitions: every key attribute of the index
     * @return the request
     */
    public static CreateGsiRequest of(GlobalSecondaryIndex index, AttributeDefinition... newDefinitions) {
        return new CreateGsiRequest(index, List.of(newDefinitions));
    }
}

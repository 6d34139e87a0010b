package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The catalog as the core's table operations read it, and the one catalog change that copies data: a new GSI. */
public interface TableCatalog {

    /**
     * The table's description as stored, whatever its state; empty when it has no catalog row.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the description, or empty
     */
    Optional<TableDescription> describe(String accountId, String tableName);

    /**
     * Every table name of the account, DELETING ones included, in name order (UTF-8 byte order).
     *
     * @param accountId the account whose tables to list
     * @return the table names
     */
    List<String> tableNames(String accountId);

    /**
     * Adds the GSI {@code request} names: in the backend's unit of work, reads the definition, takes
     * {@code rules(definition)} as the new definition (the rules refuse a table that is not ACTIVE and
     * an index that cannot be added), records the index CREATING, copies every base item that carries
     * the index's key into it (see {@code ItemRules.entryKeyOfStoredItem}) and marks it ACTIVE. Returns
     * the description after. A backend may finish an earlier attempt of the same index instead.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param request the UpdateTable request adding the GSI
     * @param rules the new definition from the one read, refusing what cannot be added
     * @return the description with the index ACTIVE
     */
    TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                             UnaryOperator<TableDescription> rules);
}

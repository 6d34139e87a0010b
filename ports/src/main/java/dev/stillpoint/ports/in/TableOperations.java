package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The table and item operations a server (and the CLI, and the conformance kit) drives. Every
 * failure is a {@code StorageException} with a reason from the closed set [D10].
 */
public interface TableOperations {

    /**
     * Creates the table CREATING; it turns ACTIVE once the control-plane delay passed [D4].
     *
     * @param request the CreateTable request
     * @return the table's description, CREATING
     */
    TableDescription createTable(CreateTableRequest request);

    /**
     * The table's description, whatever its state; TableNotFound when it has no row.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the description
     */
    TableDescription describeTable(String accountId, String tableName);

    /**
     * Every table name of the account, DELETING ones included, in name order.
     *
     * @param accountId the account whose tables to list
     * @return the table names
     */
    List<String> listTables(String accountId);

    /**
     * Adds a GSI, CREATING until its backfill from the base items is done.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param request the UpdateTable request adding the GSI
     * @return the table's description with the new index
     */
    TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request);

    /**
     * Switches the table's change log on, off, or leaves it [I1], as UpdateTable does a table setting: the
     * view of a log that is on cannot change while it stays on (switch it off first, which discards it).
     * Switching on starts the log now: an incremental export may start at the marker of any snapshot taken
     * after this returns, never before [I4]. Asking for the setting the table has changes nothing.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param setting OFF, NEW_IMAGE or NEW_AND_OLD_IMAGES
     * @return the table's description with the setting
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION for a view change while on or a null
     *     setting; TABLE_NOT_FOUND or RESOURCE_IN_USE when the table is not ACTIVE; UNSUPPORTED on a backend
     *     without the log
     */
    TableDescription updateChangeLog(String accountId, String tableName, ChangeLog setting);

    /**
     * Deletes the table [D5]: gone at once when nothing holds it and the delay is under a second;
     * otherwise DELETING with its row kept until the poller drops it. A DELETING table's
     * description comes back unchanged.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the table's description, DELETING
     */
    TableDescription deleteTable(String accountId, String tableName);

    /**
     * Writes an item (validated, numbers normalised), maintaining every index.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param item the item to write
     */
    void putItem(String accountId, String tableName, Item item);

    /**
     * Reads an item by its primary key, given as the request's key map: exactly the table's key
     * attributes with their declared types, or a validation error [V3].
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param key the item's primary key, as the request gave it
     * @return the item, or empty when there is none
     */
    Optional<Item> getItem(String accountId, String tableName, RequestKey key);

    /**
     * Deletes an item by its primary key, maintaining every index; a missing item is not an error.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param key the item's primary key, as the request gave it: exactly the table's key attributes
     *            with their declared types, or a validation error [V3]
     */
    void deleteItem(String accountId, String tableName, RequestKey key);

    /**
     * BatchWriteItem [R7]: 1 to 25 puts and deletes over one or more tables, each put checked as
     * PutItem checks it, no two requests on one table under the same key. A refusal (a bad request, a
     * missing table) applies nothing. A backend with transactions applies the batch in one; one without
     * them applies it in order and returns what a failure left unapplied as unprocessed items.
     *
     * @param accountId the account the tables belong to
     * @param requestItems the requests by table name
     * @return the requests not applied (none when the batch is complete)
     */
    BatchWriteResult batchWriteItem(String accountId, Map<String, List<WriteRequest>> requestItems);
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;

/**
 * The table and item operations a server (and the CLI, and the conformance kit) drives. Every
 * failure is a {@code StorageException} with a reason from the closed set [D10].
 */
public interface TableOperations {

    /** Creates the table CREATING; it turns ACTIVE once the control-plane delay passed [D4]. */
    TableDescription createTable(CreateTableRequest request);

    /** The table's description, whatever its state; TableNotFound when it has no row. */
    TableDescription describeTable(String accountId, String tableName);

    /** Every table name of the account, DELETING ones included, in name order. */
    List<String> listTables(String accountId);

    /** Adds a GSI, CREATING until its backfill from the base items is done. */
    TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request);

    /**
     * Deletes the table [D5]: gone at once when nothing holds it and the delay is under a second;
     * otherwise DELETING with its row kept until the poller drops it. A DELETING table's
     * description comes back unchanged.
     */
    TableDescription deleteTable(String accountId, String tableName);

    /** Writes an item (validated, numbers normalised), maintaining every index. */
    void putItem(String accountId, String tableName, Item item);

    /** Reads an item by its primary key. */
    Optional<Item> getItem(String accountId, String tableName, Key key);

    /** Deletes an item by its primary key, maintaining every index; a missing item is not an error. */
    void deleteItem(String accountId, String tableName, Key key);
}

package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.List;

/** What a table's data tables hold, read past the ports: the tests' view of the layout of {@link DataTables}. */
final class StoredData {

    private StoredData() {
    }

    /** The items of one partition of an ACTIVE table, in the order Cassandra keeps them (clustering order). */
    static List<Item> partitionItems(CassandraStorage storage, String accountId, String tableName, AttributeValue partition) {
        CatalogRow row = storage.catalog().require(accountId, tableName);
        if (row.status() != TableStatus.ACTIVE) {
            throw new StorageException(ErrorReason.TABLE_NOT_FOUND, "table '" + tableName + "' is " + row.status()
                    + ", not ACTIVE");
        }
        Object pk = DataTables.cqlValue(DataTables.type(row, row.keySchema().partitionKey()), partition);
        return items(storage.cql().read("reading a partition", "SELECT item FROM " + row.itemsTable() + " WHERE pk = ?", pk));
    }

    /** Every entry of an index: partitions in token order, entries in clustering order. */
    static List<Item> indexItems(CassandraStorage storage, String accountId, String tableName, String indexName) {
        CatalogRow row = storage.catalog().require(accountId, tableName);
        IndexDef index = row.index(indexName).orElseThrow(() -> StorageException.validation(
                "table '" + tableName + "' has no index named '" + indexName + "'"));
        return items(storage.cql().read("reading an index", ItemStatements.selectItems(row.qualified(index))));
    }

    /** Every item of the table, in token order. */
    static List<Item> allItems(CassandraStorage storage, String accountId, String tableName) {
        CatalogRow row = storage.catalog().require(accountId, tableName);
        return items(storage.cql().read("reading a table", ItemStatements.selectItems(row.itemsTable())));
    }

    /** The table's data tables (qualified), for tests that check DeleteTable dropped them. */
    static List<String> dataTables(CassandraStorage storage, String accountId, String tableName) {
        return storage.catalog().require(accountId, tableName).dataTables();
    }

    private static List<Item> items(Iterable<Row> rows) {
        List<Item> items = new ArrayList<>();
        for (Row r : rows) {
            items.add(ItemJson.decode(r.getString("item")));
        }
        return items;
    }
}

package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.AccountIds;
import dev.stillpoint.domain.request.BatchRules;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.TableRules;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableCreator;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The table and item operations of every backend, written once. Each request is checked against
 * DynamoDB's rules [R1-R4] before storage is touched; rules that need the table's definition run in
 * the core's write sequence ({@link ItemWrites}), against the definition the unit of work holds.
 */
public final class TableService implements TableOperations {

    private final TableCatalog catalog;
    private final ItemWrites items;
    private final IndexAddition indexes;
    private final TableCreator creation;
    private final TableDeletion deletion;
    private final StorageEvents events;

    /**
     * The service over one backend's catalog, item store, creation path and drop port (through {@code deletion}).
     *
     * @param catalog the backend's table catalog
     * @param items the write sequence over the backend's item storage
     * @param creation the CreateTable path
     * @param deletion the DeleteTable path over the backend's drop port
     */
    public TableService(TableCatalog catalog, ItemWrites items, TableCreator creation, TableDeletion deletion) {
        this(catalog, items, creation, deletion, StorageEvents.NONE);
    }

    /**
     * The service, telling {@code events} how long each write took and whether it failed [X1].
     *
     * @param catalog the backend's table catalog
     * @param items the write sequence over the backend's item storage
     * @param creation the CreateTable path
     * @param deletion the DeleteTable path over the backend's drop port
     * @param events told of every put, delete and batch write
     */
    public TableService(TableCatalog catalog, ItemWrites items, TableCreator creation, TableDeletion deletion,
                        StorageEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.indexes = new IndexAddition(catalog);
        this.items = Objects.requireNonNull(items, "items");
        this.creation = Objects.requireNonNull(creation, "creation");
        this.deletion = Objects.requireNonNull(deletion, "deletion");
    }

    @Override
    public TableDescription createTable(CreateTableRequest request) {
        return creation.createTable(TableRules.requireCreatable(request));
    }

    @Override
    public TableDescription describeTable(String accountId, String tableName) {
        TableRules.requireAddress(accountId, tableName);
        return catalog.describe(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    @Override
    public List<String> listTables(String accountId) {
        // Code point order, one rule for every backend: for DynamoDB's names (ASCII) it is UTF-8 byte order,
        // whatever collation a database would sort by.
        return catalog.tableNames(AccountIds.require(accountId)).stream().sorted().toList();
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request) {
        TableRules.requireAddress(accountId, tableName);
        TableRules.requireCreatable(request);
        return indexes.add(accountId, tableName, request,
                before -> TableRules.requireItemsAvailable(before).applyCreateGsi(request));
    }

    @Override
    public TableDescription updateChangeLog(String accountId, String tableName, ChangeLog setting) {
        TableRules.requireAddress(accountId, tableName);
        return catalog.switchChangeLog(accountId, tableName, stored -> TableRules.requireChangeLogSwitch(stored, setting));
    }

    @Override
    public TableDescription deleteTable(String accountId, String tableName) {
        TableRules.requireAddress(accountId, tableName);
        return deletion.deleteTable(accountId, tableName);
    }

    @Override
    public void putItem(String accountId, String tableName, Item item) {
        timed(StorageEvents.WriteKind.PUT, () -> {
            TableRules.requireAddress(accountId, tableName);
            if (item == null) {
                throw StorageException.validation("item to put into table '" + tableName + "' is required, got null");
            }
            items.put(accountId, tableName, table -> ItemRules.forPut(TableRules.requireItemsAvailable(table), item));
            return null;
        });
    }

    @Override
    public Optional<Item> getItem(String accountId, String tableName, RequestKey key) {
        TableRules.requireAddress(accountId, tableName);
        requireKey(key, tableName);
        return items.get(accountId, tableName, table -> ItemRules.forKey(TableRules.requireItemsAvailable(table), key));
    }

    @Override
    public void deleteItem(String accountId, String tableName, RequestKey key) {
        timed(StorageEvents.WriteKind.DELETE, () -> {
            TableRules.requireAddress(accountId, tableName);
            requireKey(key, tableName);
            items.delete(accountId, tableName, table -> ItemRules.forKey(TableRules.requireItemsAvailable(table), key));
            return null;
        });
    }

    @Override
    public BatchWriteResult batchWriteItem(String accountId, Map<String, List<WriteRequest>> requestItems) {
        return timed(StorageEvents.WriteKind.BATCH, () -> batch(accountId, requestItems));
    }

    /** Runs a write and tells the events how long it took and whether it threw. */
    private <T> T timed(StorageEvents.WriteKind kind, Supplier<T> write) {
        long began = System.nanoTime();
        boolean failed = true;
        try {
            T result = write.get();
            failed = false;
            return result;
        } finally {
            events.written(kind, Duration.ofNanos(System.nanoTime() - began), failed);
        }
    }

    private BatchWriteResult batch(String accountId, Map<String, List<WriteRequest>> requestItems) {
        Map<String, List<WriteRequest>> batch = BatchRules.requireShape(accountId, requestItems);
        Map<String, Function<TableDescription, List<ItemChange>>> rules = new LinkedHashMap<>();
        batch.forEach((table, requests) -> rules.put(table, definition -> BatchRules.forTable(definition, requests)));
        Map<String, List<ItemChange>> notApplied = items.write(accountId, rules);
        Map<String, List<WriteRequest>> unprocessed = new LinkedHashMap<>();
        notApplied.forEach((table, changes) -> unprocessed.put(table,
                changes.stream().map(ItemChange::request).toList()));
        return new BatchWriteResult(unprocessed);
    }

    private static void requireKey(RequestKey key, String tableName) {
        if (key == null) {
            throw StorageException.validation("key of an item of table '" + tableName + "' is required, got null");
        }
    }
}

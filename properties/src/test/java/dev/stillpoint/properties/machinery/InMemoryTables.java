package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.ItemStore;
import dev.stillpoint.ports.out.TableCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A fake of the table catalog and item store for core tests (no database): descriptions by name, the
 * last write per item under its partition key (S keys only), every call logged. Each call reads the
 * definition first and applies the core's rules to it, as an adapter's unit of work does.
 */
class InMemoryTables implements TableCatalog, ItemStore {
    final Map<String, TableDescription> tables = new ConcurrentHashMap<>();
    final Map<String, ItemWrite> items = new ConcurrentHashMap<>();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    private TableDescription read(String tableName) {
        calls.add("read " + tableName);
        TableDescription table = tables.get(tableName);
        if (table == null) {
            throw StorageException.tableNotFound(tableName);
        }
        return table;
    }

    private static String id(String tableName, Key key) {
        return tableName + "/" + ((AttributeValue.S) key.partition()).value();
    }

    @Override
    public Optional<TableDescription> describe(String accountId, String tableName) {
        calls.add("describe " + tableName);
        return Optional.ofNullable(tables.get(tableName));
    }

    @Override
    public List<String> tableNames(String accountId) {
        calls.add("list");
        return List.copyOf(tables.keySet());
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                                    UnaryOperator<TableDescription> rules) {
        TableDescription after = rules.apply(read(tableName));
        tables.put(tableName, after);
        return after;
    }

    @Override
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        ItemWrite write = rules.apply(read(tableName));
        items.put(id(tableName, write.key()), write);
    }

    @Override
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        items.remove(id(tableName, rules.apply(read(tableName))));
    }

    @Override
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        return Optional.ofNullable(items.get(id(tableName, rules.apply(read(tableName))))).map(ItemWrite::item);
    }

    @Override
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        // Every table's rules first, as one unit of work would: a refusal leaves everything untouched.
        Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
        rules.forEach((table, rule) -> changes.put(table, rule.apply(read(table))));
        changes.forEach((table, list) -> list.forEach(change -> {
            if (change instanceof ItemChange.Put put) {
                items.put(id(table, put.key()), put.write());
            } else {
                items.remove(id(table, change.key()));
            }
        }));
        return Map.of();
    }
}

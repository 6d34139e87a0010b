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
import dev.stillpoint.ports.out.TableRecord;
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
 * A fake of the table catalog and item store for core tests (no database): descriptions by name (its
 * own or a {@link FakeCatalog}'s), the last write per item under its partition key (S keys only), every
 * call logged. Each call reads the definition first and applies the core's rules to it, as an adapter's
 * unit of work does.
 */
class InMemoryTables implements TableCatalog, ItemStore {
    final Map<String, TableDescription> tables = new ConcurrentHashMap<>();
    final Map<String, ItemWrite> items = new ConcurrentHashMap<>();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    /** The number of changes of each {@code write}, in order: one entry per unit of work. */
    final List<Integer> writeSizes = Collections.synchronizedList(new ArrayList<>());
    /** How many of a write's last changes a backend without transactions leaves unapplied. */
    volatile int unapplied;
    /** Runs after each {@code write}, as another thread acting between two units of work would. */
    volatile Runnable afterWrite = () -> { };
    private final Function<String, TableDescription> definitions;

    /** Definitions from this fake's own map. */
    InMemoryTables() {
        definitions = tables::get;
    }

    /** Definitions from {@code catalog}'s rows, as an adapter whose catalog and items share a database. */
    InMemoryTables(FakeCatalog catalog) {
        definitions = name -> {
            TableRecord row = catalog.rows.get(name);
            return row == null ? null : row.description();
        };
    }

    private TableDescription read(String tableName) {
        calls.add("read " + tableName);
        TableDescription table = definitions.apply(tableName);
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
        return Optional.ofNullable(definitions.apply(tableName));
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
        Map<String, List<ItemChange>> notApplied = new LinkedHashMap<>();
        changes.forEach((table, list) -> {
            writeSizes.add(list.size());
            int applied = Math.max(0, list.size() - unapplied);
            list.subList(0, applied).forEach(change -> {
                if (change instanceof ItemChange.Put put) {
                    items.put(id(table, put.key()), put.write());
                } else {
                    items.remove(id(table, change.key()));
                }
            });
            if (applied < list.size()) {
                notApplied.put(table, list.subList(applied, list.size()));
            }
        });
        afterWrite.run();
        return notApplied;
    }
}

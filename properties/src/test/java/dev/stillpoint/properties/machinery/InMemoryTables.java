package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.domain.error.ErrorReason;
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

/**
 * A fake of the table catalog and item store for core tests (no database): descriptions by name (its
 * own or a {@link FakeCatalog}'s), the last write per item under its partition key (S keys only), every
 * call logged. It keeps no catalog versions, so the core's write sequence loads the definition in every
 * unit of work.
 */
class InMemoryTables implements TableCatalog, ItemStorage {
    final Map<String, TableDescription> tables = new ConcurrentHashMap<>();
    final Map<String, ItemWrite> items = new ConcurrentHashMap<>();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    /** The number of changes each unit of work applied, per table, in order. */
    final List<Integer> writeSizes = Collections.synchronizedList(new ArrayList<>());
    /**
     * After how many changes a unit fails, as a backend without transactions would partway (its units
     * are then not atomic); negative: units are atomic and never fail.
     */
    volatile int failAfter = -1;
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

    /** An atomic build over this fake's own map: the definition recorded, then the index marked ACTIVE. */
    @Override
    public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
        return work.run(new IndexBuild() {
            @Override
            public boolean atomic() {
                return true;
            }

            @Override
            public Optional<StorageTable> load(String accountId, String tableName) {
                return Optional.of(new DescribedTable(read(tableName)));
            }

            @Override
            public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
                tables.put(after.tableName(), after);
                return Optional.of(new DescribedTable(after));
            }

            @Override
            public ItemScan scan(StorageTable table) {
                String prefix = table.description().tableName() + "/";
                List<BaseItem> all = new ArrayList<>();
                items.forEach((id, write) -> {
                    if (id.startsWith(prefix)) {
                        all.add(write::item);
                    }
                });
                return new ItemScan() {
                    private int at;

                    @Override
                    public List<BaseItem> next(int max) {
                        List<BaseItem> page = all.subList(at, Math.min(all.size(), at + max));
                        at += page.size();
                        return page;
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void write(StorageTable table, String indexName, List<BackfillEntry> entries) {
                calls.add("backfill " + indexName + " " + entries.size());
            }

            @Override
            public void activate(StorageTable table, String indexName) {
                String name = table.description().tableName();
                tables.put(name, tables.get(name).withIndexStatus(indexName, IndexStatus.ACTIVE));
            }
        });
    }

    @Override
    public <T> T inUnit(String doing, UnitWork<T> work) {
        // An atomic unit applies its changes when the work returns, as a transaction commits; a unit of
        // a backend without transactions applies each at once, until failAfter.
        boolean atomic = failAfter < 0;
        int[] seen = {0};
        RecordedUnit unit = new RecordedUnit(atomic, this::table, (table, change) -> {
            if (!atomic) {
                if (seen[0]++ == failAfter) {
                    throw new StorageException(ErrorReason.TRANSIENT, "this fake stops after " + failAfter + " change(s)");
                }
                apply(table, change);
            }
        });
        try {
            T result = work.run(unit);
            if (atomic) {
                unit.changes.forEach((table, list) -> list.forEach(change -> apply(table, change)));
            }
            return result;
        } finally {
            unit.changes.values().forEach(list -> writeSizes.add(list.size()));
            afterWrite.run();
        }
    }

    private void apply(String table, ItemChange change) {
        if (change instanceof ItemChange.Put put) {
            items.put(id(table, put.key()), put.write());
        } else {
            items.remove(id(table, change.key()));
        }
    }

    @Override
    public boolean versionedCatalog() {
        return false;
    }

    @Override
    public Optional<StorageTable> table(String accountId, String tableName) {
        calls.add("read " + tableName);
        return Optional.ofNullable(definitions.apply(tableName)).map(DescribedTable::new);
    }

    @Override
    public Optional<Item> read(StorageTable table, Key key) {
        return Optional.ofNullable(items.get(id(table.description().tableName(), key))).map(ItemWrite::item);
    }
}

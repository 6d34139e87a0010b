package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * A fake's unit of item work, for core tests (no database): it records every change by table name; a
 * fake with transactions applies them when the work returns, one without passes each to {@code each}
 * as it comes (which may throw, as a failing write would). It keeps no catalog versions.
 */
public final class RecordedUnit implements ItemUnit {

    /** The changes, by table name, in the order they came. */
    public final Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
    private final boolean atomic;
    private final BiFunction<String, String, Optional<StorageTable>> tables;
    private final BiConsumer<String, ItemChange> each;
    private String accountId = "";

    /**
     * A unit over a fake's tables.
     *
     * @param atomic whether its changes commit together
     * @param tables the fake's table by account and name
     * @param each what to do with each change as it comes, before it is recorded
     */
    public RecordedUnit(boolean atomic, BiFunction<String, String, Optional<StorageTable>> tables,
                        BiConsumer<String, ItemChange> each) {
        this.atomic = atomic;
        this.tables = tables;
        this.each = each;
    }

    @Override
    public boolean atomic() {
        return atomic;
    }

    @Override
    public List<Optional<CatalogStamp>> stamps(String accountId, List<String> tableNames) {
        throw new UnsupportedOperationException("this fake keeps no catalog versions");
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        this.accountId = accountId;
        return tables.apply(accountId, tableName);
    }

    /**
     * The account of the tables the core loaded in this unit (the core's units are of one account).
     *
     * @return the account id, empty before any load
     */
    public String accountId() {
        return accountId;
    }

    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        record(table, new ItemChange.Put(write));
    }

    @Override
    public void delete(StorageTable table, Key key) {
        record(table, new ItemChange.Delete(key, null));
    }

    private void record(StorageTable table, ItemChange change) {
        String name = table.description().tableName();
        each.accept(name, change);
        changes.computeIfAbsent(name, t -> new ArrayList<>()).add(change);
    }
}

package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.request.ReadRules;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The write sequence of every backend, written once: in one unit of work, each table's definition (the
 * one kept from before when its catalog stamp still matches, else loaded), then the rules applied to it,
 * then the item writes; a batch's every rule applied before its first write, so a refusal writes
 * nothing [R7]. Where the backend offers it, a write on definitions already known is first tried on the
 * optimistic path ({@link ItemStorage#onKnownDefinitions}); when that path does not commit, the write is
 * decided again only if a definition changed: under an unchanged one, the rules' first answer (a
 * refusal included) stands, so they run once per write.
 */
public final class ItemWrites {

    private final ItemStorage storage;
    /** The definition last loaded per table, by account id and table name (neither can hold NUL). */
    private final Map<String, StorageTable> known = new ConcurrentHashMap<>();

    /**
     * The write sequence over one backend's item storage.
     *
     * @param storage the backend's item storage
     */
    public ItemWrites(ItemStorage storage) {
        this.storage = Objects.requireNonNull(storage, "storage");
    }

    /**
     * Writes {@code rules(definition)}: the item and exactly its index entries.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the item rules, applied to the definition the write is made under
     */
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        write("writing an item of table '" + tableName + "'", accountId,
                Map.of(tableName, table -> List.of(new ItemChange.Put(rules.apply(table)))));
    }

    /**
     * Removes the item under {@code rules(definition)} and its index entries; a missing item is no error.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the key rules, applied to the definition the delete is made under
     */
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        write("deleting an item of table '" + tableName + "'", accountId, Map.of(tableName, table -> {
            Key key = rules.apply(table);
            return List.of(new ItemChange.Delete(key, new WriteRequest.Delete(RequestKey.named(key, table.keySchema()))));
        }));
    }

    /**
     * The item under {@code rules(definition)}, as stored, once {@link ReadRules#forGet} has checked that it
     * carries that key (an item of another key is Internal, never handed back).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the key rules, applied to the definition read
     * @return the item, or empty when there is none under that key
     */
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        StorageTable table = storage.table(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
        Key key = rules.apply(table.description());
        return storage.read(table, key).map(found -> ReadRules.forGet(table.description(), key, found));
    }

    /**
     * Applies a batch of puts and deletes over one or more tables [R7]: every table's rules applied
     * before anything is written (a refusal, or TableNotFound naming the first table in name order
     * without a catalog row, writes nothing), then every change. A backend whose unit is atomic applies
     * all or nothing; one without ({@link ItemUnit#atomic()} false) applies them in order and returns
     * what a failure after the first change left unapplied ({@link InOrderBatch}).
     *
     * @param accountId the account the tables belong to
     * @param rules per table name, the batch rules
     * @return the changes not applied, by table name, in order; empty when every change was applied
     */
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        return write("writing a batch of items to " + rules.size() + " table(s)", accountId, rules);
    }

    private Map<String, List<ItemChange>> write(String doing, String accountId,
                                                Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        List<String> names = new ArrayList<>(new TreeSet<>(rules.keySet()));
        Decision tried = tryOnKnownDefinitions(doing, accountId, names, rules);
        if (tried != null && tried.committed) {
            return Map.of();
        }
        return storage.inUnit(doing, unit -> {
            Map<String, StorageTable> tables = current(unit, accountId, names);
            // Under the very definitions the optimistic attempt decided on, its answer stands.
            Decision decision = tried != null && tried.madeUnder(tables) ? tried : Decision.of(rules, tables);
            return decision.applyTo(unit, tables);
        });
    }

    /**
     * The optimistic attempt: when every table's definition is known, the rules decide under those
     * definitions and the backend is asked to write without reading them. Answers null when a definition
     * is not known or the catalog keeps no stamps.
     */
    private Decision tryOnKnownDefinitions(String doing, String accountId, List<String> names,
                                           Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        if (!storage.versionedCatalog()) {
            return null;
        }
        Map<String, StorageTable> tables = new LinkedHashMap<>();
        for (String name : names) {
            StorageTable table = known.get(address(accountId, name));
            if (table == null) {
                return null;
            }
            tables.put(name, table);
        }
        Decision decision = Decision.of(rules, tables);
        if (decision.refusal == null) {
            decision.committed = storage.onKnownDefinitions(doing, List.copyOf(tables.values()),
                    unit -> decision.applyTo(unit, tables));
        }
        return decision;
    }

    /** Each table's definition in {@code unit}: the one kept when its stamp is unchanged, else loaded now. */
    private Map<String, StorageTable> current(ItemUnit unit, String accountId, List<String> names) {
        Map<String, StorageTable> tables = new LinkedHashMap<>();
        if (!storage.versionedCatalog()) {
            for (String name : names) {
                tables.put(name, unit.load(accountId, name).orElseThrow(() -> StorageException.tableNotFound(name)));
            }
            return tables;
        }
        List<Optional<CatalogStamp>> stamps = unit.stamps(accountId, names);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String address = address(accountId, name);
            Optional<CatalogStamp> stamp = stamps.get(i);
            if (stamp.isEmpty()) {
                known.remove(address);
                throw StorageException.tableNotFound(name);
            }
            StorageTable table = known.get(address);
            if (table == null || !table.stamp().equals(stamp)) {
                table = unit.load(accountId, name).orElseThrow(() -> StorageException.tableNotFound(name));
                known.put(address, table);
            }
            tables.put(name, table);
        }
        return tables;
    }

    private static String address(String accountId, String tableName) {
        return accountId + '\u0000' + tableName;
    }

    /** What the rules answered under a set of definitions: the changes, or the refusal. */
    private static final class Decision {

        private final Map<String, StorageTable> tables;
        private final Map<String, List<ItemChange>> changes;
        private final RuntimeException refusal;
        private boolean committed;

        private Decision(Map<String, StorageTable> tables, Map<String, List<ItemChange>> changes,
                         RuntimeException refusal) {
            this.tables = tables;
            this.changes = changes;
            this.refusal = refusal;
        }

        /** Every table's rules applied, in the request's table order, before anything is written. */
        static Decision of(Map<String, Function<TableDescription, List<ItemChange>>> rules,
                           Map<String, StorageTable> tables) {
            Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
            try {
                rules.forEach((name, tableRules) -> changes.put(name, tableRules.apply(tables.get(name).description())));
            } catch (RuntimeException refused) {
                return new Decision(tables, null, refused);
            }
            return new Decision(tables, changes, null);
        }

        /** Whether it was made under exactly {@code current} (the same loaded definitions, so the same stamps). */
        boolean madeUnder(Map<String, StorageTable> current) {
            for (Map.Entry<String, StorageTable> table : current.entrySet()) {
                if (tables.get(table.getKey()) != table.getValue()) {
                    return false;
                }
            }
            return true;
        }

        Map<String, List<ItemChange>> applyTo(ItemUnit unit, Map<String, StorageTable> tables) {
            if (refusal != null) {
                throw refusal;
            }
            if (!unit.atomic()) {
                return InOrderBatch.apply(changes, (name, change) -> applyOne(unit, tables.get(name), change));
            }
            changes.forEach((name, tableChanges) -> tableChanges.forEach(change -> applyOne(unit, tables.get(name), change)));
            return Map.of();
        }

        private static void applyOne(ItemUnit unit, StorageTable table, ItemChange change) {
            if (change instanceof ItemChange.Put put) {
                unit.upsert(table, put.write());
            } else {
                unit.delete(table, change.key());
            }
        }
    }
}

package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Item writes (put, delete, BatchWriteItem) on PostgreSQL. Each runs in one unit of work that reads the
 * catalog row of every table it writes FOR KEY SHARE (so UpdateTable and DeleteTable, which take it FOR
 * UPDATE, wait for the write, and the write sees the index set it must maintain), in table name order,
 * before it writes the base and index relations together.
 *
 * <p>The definition last loaded per table is kept, and a write reads only the row's
 * {@code (table_id, catalog_version)}: triggers advance the version in the same transaction as every
 * change to the table's definition, whoever makes it (this engine, another node, a hand edit), so a
 * write whose stamp matches uses exactly the definition a fresh load would give, and any other write
 * loads it again (issue 13). The statements are {@link WriteStatements}' text, sent as one
 * {@link Pipeline} per round trip. On the shared layout a write whose definitions are all known is one
 * round trip in all (see {@link #sentOnKnownDefinitions}): no write runs unless every stamp still
 * matches, so nothing is ever written under a stale definition. Otherwise, and on the separate layout,
 * the stamps are read (one round trip), changed definitions loaded, the writes sent (one round trip),
 * and the unit of work committed.
 */
final class ItemWrites {

    /** A write's changes, added to a pipeline given each table's definition by name; may refuse by throwing. */
    @FunctionalInterface
    private interface Changes {
        void addTo(Pipeline pipeline, Map<String, CatalogRows.Loaded> tables);
    }

    private final Transactions tx;
    private final WriteStatements statements;
    /** The definition item writes last loaded, by account id and table name (neither can hold NUL). */
    private final Map<String, CatalogRows.Loaded> definitions = new ConcurrentHashMap<>();

    ItemWrites(Transactions tx, WriteStatements statements) {
        this.tx = tx;
        this.statements = statements;
    }

    void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        run("writing an item of table '" + tableName + "'", accountId, new TreeSet<>(List.of(tableName)), (p, tables) -> {
            CatalogRows.Loaded table = tables.get(tableName);
            store(p, table, rules.apply(table.description()));
        });
    }

    void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        run("deleting an item of table '" + tableName + "'", accountId, new TreeSet<>(List.of(tableName)), (p, tables) -> {
            CatalogRows.Loaded table = tables.get(tableName);
            remove(p, table, ItemKeys.of(rules.apply(table.description())));
        });
    }

    /** A batch [R7]: every table's rules applied before the first write, so a refusal writes nothing. */
    void write(String accountId, Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        run("writing a batch of items to " + rules.size() + " table(s)", accountId, new TreeSet<>(rules.keySet()),
                (p, tables) -> {
                    Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
                    rules.forEach((tableName, tableRules) ->
                            changes.put(tableName, tableRules.apply(tables.get(tableName).description())));
                    changes.forEach((tableName, tableChanges) -> {
                        for (ItemChange change : tableChanges) {
                            if (change instanceof ItemChange.Put put) {
                                store(p, tables.get(tableName), put.write());
                            } else {
                                remove(p, tables.get(tableName), ItemKeys.of(change.key()));
                            }
                        }
                    });
                });
    }

    private void run(String doing, String accountId, SortedSet<String> tableNames, Changes changes) {
        if (tx.pools().shared() && sentOnKnownDefinitions(doing, accountId, tableNames, changes)) {
            return;
        }
        tx.inWork(doing, w -> {
            Map<String, CatalogRows.Loaded> tables = current(w.catalogConnection(), accountId, tableNames);
            Pipeline writes = new Pipeline();
            changes.addTo(writes, tables);
            writes.run(w.dataConnection());
            return null;
        });
    }

    /**
     * Shared layout, every table's definition known: one round trip on an auto-commit connection that
     * requires each table's row to still have the stamp its known definition was loaded with (holding it
     * FOR KEY SHARE), then writes under those definitions, committed together at its end. Answers false,
     * having committed nothing, when a definition is not known, the rules refuse under the known one, or
     * any statement fails (a stamp changed, a stale definition's relation gone): the write is then decided
     * again under the definition read now. A lost connection fails the write, as any write's would.
     */
    private boolean sentOnKnownDefinitions(String doing, String accountId, SortedSet<String> tableNames, Changes changes) {
        Map<String, CatalogRows.Loaded> known = new LinkedHashMap<>();
        for (String tableName : tableNames) {
            CatalogRows.Loaded table = definitions.get(address(accountId, tableName));
            if (table == null) {
                return false;
            }
            known.put(tableName, table);
        }
        Pipeline pipeline = new Pipeline();
        known.forEach((tableName, table) -> pipeline.require(accountId, tableName, Pipeline.Stamp.of(table)));
        try {
            changes.addTo(pipeline, known);
        } catch (RuntimeException refused) {
            // Nothing was sent: the refusal is decided again under the definition read now, which may differ.
            return false;
        }
        try (Connection c = tx.pools().catalog()) {
            pipeline.run(c);
            return true;
        } catch (SQLException e) {
            if (e instanceof Pools.Unreachable || PgFailures.isConnectionLost(PgFailures.sqlState(e), e)) {
                throw PgFailures.map(doing, e);
            }
            return false;
        }
    }

    /**
     * Each table's definition for an item write, its row held FOR KEY SHARE in the write's unit of work
     * (every stamp in one round trip): the one loaded before when the row's table id and catalog version
     * are still those it was loaded with, else loaded now.
     */
    private Map<String, CatalogRows.Loaded> current(Connection catalog, String accountId, SortedSet<String> tableNames)
            throws SQLException {
        Pipeline reads = new Pipeline();
        tableNames.forEach(tableName -> reads.stamp(accountId, tableName));
        List<Pipeline.Stamp> stamps = reads.run(catalog);
        Map<String, CatalogRows.Loaded> out = new LinkedHashMap<>();
        int i = 0;
        for (String tableName : tableNames) {
            String address = address(accountId, tableName);
            Pipeline.Stamp stamp = stamps.get(i++);
            if (stamp == null) {
                definitions.remove(address);
                throw StorageException.tableNotFound(tableName);
            }
            CatalogRows.Loaded known = definitions.get(address);
            if (known == null || !stamp.equals(Pipeline.Stamp.of(known))) {
                known = CatalogRows.loadForItems(Work.dsl(catalog), accountId, tableName, CatalogRows.RowLock.KEY_SHARE)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
                definitions.put(address, known);
            }
            out.put(tableName, known);
        }
        return out;
    }

    /** Upserts the item, then replaces its index entries with exactly those {@code write} names. */
    private void store(Pipeline p, CatalogRows.Loaded table, ItemWrite write) {
        List<Object> key = ItemKeys.of(write.key()).values();
        String json = ItemJson.encode(write.item());
        // The base relation first, then the index relations: the order DeleteTable drops them in.
        p.add(statements.base(table).write(), values(List.of(), key, json));
        removeIndexEntries(p, table, key);
        for (SpIndexesRecord index : table.indexes()) {
            Optional<Key> entry = write.indexKey(index.getIndexName());
            if (entry.isPresent()) {
                p.add(statements.index(table, index).write(), values(ItemKeys.of(entry.get()).values(), key, json));
            }
        }
    }

    /** Removes the item under {@code key}, base relation first, then its index entries. */
    private void remove(Pipeline p, CatalogRows.Loaded table, ItemKeys key) {
        List<Object> values = key.values();
        p.add(statements.base(table).delete(), values);
        removeIndexEntries(p, table, values);
    }

    private void removeIndexEntries(Pipeline p, CatalogRows.Loaded table, List<Object> key) {
        for (SpIndexesRecord index : table.indexes()) {
            p.add(statements.index(table, index).delete(), key);
        }
    }

    private static List<Object> values(List<Object> entryKey, List<Object> key, String json) {
        List<Object> out = new ArrayList<>(entryKey.size() + key.size() + 1);
        out.addAll(entryKey);
        out.addAll(key);
        out.add(json);
        return out;
    }

    private static String address(String accountId, String tableName) {
        return accountId + '\u0000' + tableName;
    }
}

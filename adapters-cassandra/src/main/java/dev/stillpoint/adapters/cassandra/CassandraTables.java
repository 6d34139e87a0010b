package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.InOrderBatch;
import dev.stillpoint.ports.out.ItemStore;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableCreator;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table and item operations on Cassandra.
 *
 * <p><b>CreateTable</b> inserts the catalog row CREATING with {@code IF NOT EXISTS}: of concurrent
 * CreateTables of one name exactly one is applied, every other one gets ResourceInUse. The winner
 * creates the items table and one table per index (waiting for schema agreement after each), then
 * sets the row ACTIVE (conditional on its table id and CREATING) and answers ACTIVE: the table is
 * usable when the call returns, so no poller is needed to activate it. A failure on the way drops
 * what was created and removes the row.
 *
 * <p><b>DeleteTable</b> is synchronous and never leaves a table DELETING [C2]: the lifecycle
 * machine's synchronous path with a probe that always answers "free" (Cassandra has no relation
 * locks, and a DROP never waits for readers); every data table is dropped, then the row is removed
 * (conditional on the table id). A drop that fails surfaces as the mapped error (Transient for a
 * timeout) with the row still ACTIVE, and a retry of the DeleteTable finishes the job; it is never
 * recorded as DELETING. The answer carries status DELETING, as DynamoDB's DeleteTable answer does;
 * DescribeTable never reports it: the row is there (ACTIVE) or gone.
 *
 * <p><b>Items and their index entries.</b> Cassandra has no multi-partition transactions, so an
 * item and its index entries are kept consistent by three rules:
 * <ol>
 *   <li>Every write of an item is a lightweight transaction on its row, conditional on the revision
 *       it read ({@code IF rev = ?}, or {@code IF NOT EXISTS}), so each write knows exactly which
 *       item it replaced; the new revision is {@code max(old + 1, now in microseconds)}.</li>
 *   <li>Index entries are written and deleted {@code USING TIMESTAMP <revision>} of the item version
 *       that caused them, in one logged batch: Cassandra resolves every cell by timestamp, so
 *       whatever order concurrent writers' batches (and a backfill) arrive in, an entry written by
 *       an older version never outlives the delete of a newer one.</li>
 *   <li>After its index writes, a write reads the catalog row again and, if an index appeared
 *       meanwhile (UpdateTable), writes that index's entries too. UpdateTable records the index
 *       (CREATING) before its backfill scans the items, so every item is covered either by the
 *       backfill's scan (written before the index was recorded) or by its writer's second look.</li>
 * </ol>
 * A lightweight transaction that times out (WRITE_TIMEOUT of type CAS, CAS_WRITE_UNKNOWN) has an
 * unknown outcome; a serial read of the row settles it (applied exactly when the row holds this
 * write's revision and text), so an applied write still gets its index entries and an unapplied
 * one is retried. A writer that dies between its item write and its index writes leaves the index
 * behind the item until the item is written again: there is no background repair. Revisions are
 * microsecond clock readings where that exceeds the previous one, so a delete and a later re-put of
 * an item from different clients order their index writes correctly only as far as the clients'
 * clocks agree (Cassandra's own last-write-wins makes the same assumption).
 */
final class CassandraTables implements TableCatalog, ItemStore, TableCreator, TableStatistics {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraTables.class);

    /** Attempts of one conditional write before giving up with Transient. */
    private static final int MAX_ATTEMPTS = 32;

    /** Index writes whose item texts total at most this go as one logged batch (Cassandra warns above 5 KiB). */
    static final long BATCH_BYTES = 5 * 1024;

    private final Cql cql;
    private final CatalogStore catalog;
    private final CassandraConfig config;
    private volatile WriteHooks hooks = WriteHooks.NONE;

    CassandraTables(Cql cql, CatalogStore catalog, CassandraConfig config) {
        this.cql = cql;
        this.catalog = catalog;
        this.config = config;
    }

    /** For this package's tests only. */
    void hooks(WriteHooks newHooks) {
        this.hooks = newHooks == null ? WriteHooks.NONE : newHooks;
    }

    // ------------------------------------------------------------------------------------------
    // Tables

    @Override
    public TableDescription createTable(CreateTableRequest request) {
        CatalogRow row = insertCreating(request, DataNames.newTableId(), "cannot create table '");
        if (!catalog.activate(row)) {
            throw StorageException.resourceInUse("table '" + request.tableName() + "' was deleted while it was being created");
        }
        return row.withStatus(TableStatus.ACTIVE, row.revision() + 1).description();
    }

    /**
     * Inserts the table's row CREATING (one LWT, the arbiter of a name in use: ResourceInUse, the message
     * starting with {@code refusal}) and creates its data tables; a failure drops what it created.
     */
    CatalogRow insertCreating(CreateTableRequest request, String tableId, String refusal) {
        String tableName = request.tableName();
        String keyspace = catalog.dataKeyspace(request.accountId());
        List<IndexDef> indexes = new ArrayList<>();
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            indexes.add(IndexDef.of(g, IndexStatus.ACTIVE, false, DataNames.newIndexTable(tableId, true)));
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            indexes.add(IndexDef.of(l, DataNames.newIndexTable(tableId, false)));
        }
        Instant now = config.time().now().truncatedTo(ChronoUnit.MILLIS);  // a CQL timestamp holds milliseconds
        String arn = "arn:aws:dynamodb:local:" + request.accountId() + ":table/" + tableName;
        CatalogRow row = new CatalogRow(request.accountId(), tableName, tableId, arn, TableStatus.CREATING, now,
                keyspace, request.keySchema(), request.attributeDefinitions(), indexes, request.stream(),
                request.timeToLive(), 1);
        Optional<String> existing = catalog.insertIfAbsent(row);
        if (existing.isPresent()) {
            throw StorageException.resourceInUse(refusal + tableName + "': a table of this name exists"
                    + " and is " + existing.get());
        }
        try {
            cql.ddl("creating the items table of '" + tableName + "'", DataTables.createItemsTable(row));
            for (IndexDef index : indexes) {
                cql.ddl("creating the table of index '" + index.name() + "' of '" + tableName + "'",
                        DataTables.createIndexTable(row, index));
            }
        } catch (RuntimeException e) {
            undoCreate(row, e);
            throw e;
        }
        return row;
    }

    private void undoCreate(CatalogRow row, RuntimeException cause) {
        LOG.warn("CreateTable of '{}' failed ({}); dropping what it created", row.tableName(), cause.getMessage());
        try {
            for (String table : row.dataTables()) {
                cql.ddl("dropping " + table + " after a failed CreateTable", "DROP TABLE IF EXISTS " + table);
            }
            catalog.remove(row);
        } catch (RuntimeException e) {
            LOG.warn("could not undo the failed CreateTable of '{}': {}", row.tableName(), e.getMessage());
        }
    }

    @Override
    public Optional<TableDescription> describe(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(row -> {
            long[] counts = catalog.statistics(row.tableId());
            return row.description(catalog.restore(row.tableId())).withCounts(counts[0], counts[1]);
        });
    }

    /**
     * Counts every ACTIVE table's items and their JSON bytes by reading its items table (paged by the
     * driver). A full read of every token range: the statistics poller runs it every few minutes, so
     * its cost is spread, and the counts are approximate as DynamoDB's are.
     */
    @Override
    public void recount() {
        for (CatalogRow row : catalog.all()) {
            if (row.status() != TableStatus.ACTIVE) {
                continue;
            }
            long items = 0;
            long bytes = 0;
            String doing = "counting the items of table '" + row.tableName() + "'";
            for (Row r : whileTableExists(row.tableName(), doing, () -> cql.read(doing, "SELECT item FROM " + row.itemsTable()))) {
                items++;
                bytes += Item.utf8Length(r.getString("item"));
            }
            long[] before = catalog.statistics(row.tableId());
            if (before[0] != items || before[1] != bytes) {
                catalog.recordStatistics(row.tableId(), items, bytes);
            }
        }
    }

    @Override
    public List<String> tableNames(String accountId) {
        return catalog.names(accountId);
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                                    UnaryOperator<TableDescription> rules) {
        String indexName = request.index().name();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogRow row = row(accountId, tableName);
            Optional<IndexDef> existing = row.index(indexName);
            if (existing.isPresent() && resumable(existing.get(), request)) {
                // An earlier UpdateTable recorded the index and failed in its backfill: finish it.
                backfill(row, existing.get());
                return activateIndex(accountId, tableName, existing.get()).description();
            }
            TableDescription after = rules.apply(row.description());
            GlobalSecondaryIndex gsi = after.gsi(indexName).orElseThrow();
            IndexDef index = IndexDef.of(gsi, IndexStatus.CREATING, true, DataNames.newIndexTable(row.tableId(), true));
            List<IndexDef> indexes = new ArrayList<>(row.indexes());
            indexes.add(index);
            CatalogRow updated = row.withIndexes(after.attributeDefinitions(), indexes, row.revision() + 1);
            // The index table exists before the row names it: a writer that sees the index can write to it.
            cql.ddl("creating the table of index '" + indexName + "' of '" + tableName + "'",
                    DataTables.createIndexTable(updated, index));
            if (!catalog.updateIndexes(updated, row.revision())) {
                dropQuietly(updated.qualified(index));
                continue;
            }
            backfill(updated, index);
            return activateIndex(accountId, tableName, index).description();
        }
        throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed " + MAX_ATTEMPTS
                + " times while index '" + indexName + "' was being added; try again");
    }

    private static boolean resumable(IndexDef existing, CreateGsiRequest request) {
        return existing.global() && existing.status() == IndexStatus.CREATING
                && existing.keySchema().equals(request.index().keySchema())
                && existing.projection().equals(request.index().projection());
    }

    /** Copies every base item into the index, each entry at its item's revision. */
    private void backfill(CatalogRow row, IndexDef index) {
        String doing = "backfilling index '" + index.name() + "' of '" + row.tableName() + "'";
        String select = "SELECT pk" + (row.keySchema().sortKey().isPresent() ? ", sk" : "") + ", item, rev FROM "
                + row.itemsTable();
        TableDescription table = row.description();
        for (Row r : cql.read(doing, select)) {
            Item item = ItemJson.decode(r.getString("item"));
            Optional<IndexKey> key = indexKey(row, table, index, item);
            if (key.isEmpty()) {
                continue;   // not in this index (attribute missing, or of another type than declared)
            }
            BaseKey base = new BaseKey(r.getObject("pk"), row.keySchema().sortKey().isPresent() ? r.getObject("sk") : null);
            cql.execute(doing, insertEntry(row, index, key.get(), base, item, r.getLong("rev")));
        }
    }

    private CatalogRow activateIndex(String accountId, String tableName, IndexDef index) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogRow row = row(accountId, tableName);
            Optional<IndexDef> current = row.index(index.name()).filter(i -> i.relation().equals(index.relation()));
            if (current.isEmpty()) {
                throw StorageException.resourceInUse("index '" + index.name() + "' of table '" + tableName
                        + "' was replaced while it was being built");
            }
            if (current.get().status() == IndexStatus.ACTIVE) {
                return row;
            }
            List<IndexDef> indexes = row.indexes().stream()
                    .map(i -> i.name().equals(index.name()) ? i.withStatus(IndexStatus.ACTIVE, false) : i).toList();
            CatalogRow updated = row.withIndexes(row.definitions(), indexes, row.revision() + 1);
            if (catalog.updateIndexes(updated, row.revision())) {
                return updated;
            }
        }
        throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed " + MAX_ATTEMPTS
                + " times while index '" + index.name() + "' was being activated; try again");
    }

    private void dropQuietly(String table) {
        try {
            cql.ddl("dropping the unused index table " + table, "DROP TABLE IF EXISTS " + table);
        } catch (RuntimeException e) {
            LOG.warn("could not drop the unused index table {}: {}", table, e.getMessage());
        }
    }

    // ------------------------------------------------------------------------------------------
    // Items

    @Override
    public void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules) {
        CatalogRow row = row(accountId, tableName);
        ItemWrite write = rules.apply(row.description());
        hooks.afterCatalogRead(tableName);
        store(row, tableName, write);
    }

    /**
     * Cassandra has no transaction across partitions: every table's definition is read and every rule
     * applied first (a refusal writes nothing), then each change is applied as a put or delete would
     * be, in order, and a failure after some were applied returns the rest unprocessed [R7].
     */
    @Override
    public Map<String, List<ItemChange>> write(String accountId,
                                               Map<String, Function<TableDescription, List<ItemChange>>> rules) {
        Map<String, CatalogRow> rows = new LinkedHashMap<>();
        Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
        rules.forEach((tableName, tableRules) -> {
            CatalogRow row = row(accountId, tableName);
            rows.put(tableName, row);
            changes.put(tableName, tableRules.apply(row.description()));
        });
        rows.keySet().forEach(hooks::afterCatalogRead);
        return InOrderBatch.apply(changes, (tableName, change) -> {
            CatalogRow row = rows.get(tableName);
            if (change instanceof ItemChange.Put p) {
                store(row, tableName, p.write());
            } else {
                remove(row, tableName, baseKey(row, change.key()));
            }
        });
    }

    /** Writes one checked item under its revision, then its index entries. */
    private void store(CatalogRow row, String tableName, ItemWrite write) {
        Item valid = write.item();
        String json = ItemJson.encode(valid);
        BaseKey key = baseKey(row, write.key());
        whileTableExists(tableName, "writing an item", () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stored old = read(row, key);
                long rev = nextRevision(old == null ? 0 : old.rev);
                hooks.beforeItemWrite(tableName);
                boolean applied;
                try {
                    applied = (old == null
                            ? cql.run("writing an item of '" + tableName + "'", insertItem(row), values(key, json, rev))
                            : cql.run("writing an item of '" + tableName + "'", updateItem(row),
                                    values(json, rev, key, old.rev))).wasApplied();
                } catch (StorageException e) {
                    if (!DriverFailures.isCasUncertain(e)) {
                        throw e;
                    }
                    // Unknown outcome: applied exactly when the row now holds this write (its revision and text).
                    Stored now = serialRead(row, key);
                    applied = now != null && now.rev == rev && now.json.equals(json);
                }
                if (applied) {
                    hooks.afterItemWrite(tableName);
                    Optional<Item> before = old == null ? Optional.empty() : Optional.of(ItemJson.decode(old.json));
                    maintain(row, row.indexes(), key, before, Optional.of(valid), rev);
                    followCatalog(row, key, before, Optional.of(valid), rev);
                    return null;
                }
            }
            throw contended(tableName);
        });
    }

    @Override
    public Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules) {
        CatalogRow row = row(accountId, tableName);
        BaseKey k = baseKey(row, rules.apply(row.description()));
        return whileTableExists(tableName, "reading an item", () -> {
            Stored stored = read(row, k);
            return stored == null ? Optional.empty() : Optional.of(ItemJson.decode(stored.json));
        });
    }

    @Override
    public void delete(String accountId, String tableName, Function<TableDescription, Key> rules) {
        CatalogRow row = row(accountId, tableName);
        remove(row, tableName, baseKey(row, rules.apply(row.description())));
    }

    /** Deletes one item under its revision, then its index entries; a missing item is no error. */
    private void remove(CatalogRow row, String tableName, BaseKey k) {
        whileTableExists(tableName, "deleting an item", () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stored old = read(row, k);
                if (old == null) {
                    return null;
                }
                long rev = nextRevision(old.rev);
                boolean applied;
                try {
                    applied = cql.run("deleting an item of '" + tableName + "'", deleteItem(row), values(k, old.rev))
                            .wasApplied();
                } catch (StorageException e) {
                    if (!DriverFailures.isCasUncertain(e)) {
                        throw e;
                    }
                    // Unknown outcome: gone means deleted (by this delete or another; either way its
                    // entries go); any other version means try again on it.
                    applied = serialRead(row, k) == null;
                }
                if (applied) {
                    Optional<Item> before = Optional.of(ItemJson.decode(old.json));
                    maintain(row, row.indexes(), k, before, Optional.empty(), rev);
                    followCatalog(row, k, before, Optional.empty(), rev);
                    return null;
                }
            }
            throw contended(tableName);
        });
    }

    private static StorageException contended(String tableName) {
        return new StorageException(ErrorReason.TRANSIENT, "an item of table '" + tableName + "' was changed "
                + MAX_ATTEMPTS + " times by other writers while this write tried; try again");
    }

    /** The revision after {@code old}: later than it, and no earlier than now (microseconds). */
    private long nextRevision(long old) {
        Instant now = config.time().now();
        long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000L);
        return Math.max(old + 1, micros);
    }

    /**
     * Writes and deletes the entries of {@code indexes} for the change {@code before} -> {@code after}
     * of one item, at the change's revision: one logged batch for small items, concurrent single
     * statements for large ones (rule 2 makes their order irrelevant).
     */
    private void maintain(CatalogRow row, List<IndexDef> indexes, BaseKey key, Optional<Item> before,
                          Optional<Item> after, long rev) {
        List<BoundStatement> batch = new ArrayList<>();
        long bytes = 0;
        TableDescription table = row.description();
        for (IndexDef index : indexes) {
            Optional<IndexKey> oldKey = before.flatMap(i -> indexKey(row, table, index, i));
            Optional<IndexKey> newKey = after.flatMap(i -> indexKey(row, table, index, i));
            if (oldKey.isPresent() && !oldKey.equals(newKey)) {
                batch.add(deleteEntry(row, index, oldKey.get(), key, rev));
            }
            if (newKey.isPresent()) {
                BoundStatement insert = insertEntry(row, index, newKey.get(), key, after.get(), rev);
                bytes += insert.getString("item").length();
                batch.add(insert);
            }
        }
        cql.runAll("maintaining the indexes of '" + row.tableName() + "'", batch, bytes, BATCH_BYTES);
    }

    /** Rule 3: indexes recorded since this write read the catalog get their entries too. */
    private void followCatalog(CatalogRow row, BaseKey key, Optional<Item> before, Optional<Item> after, long rev) {
        Optional<CatalogRow> now = catalog.find(row.accountId(), row.tableName());
        if (now.isEmpty() || !now.get().tableId().equals(row.tableId())) {
            return;
        }
        Set<String> known = new HashSet<>();
        row.indexes().forEach(i -> known.add(i.relation()));
        List<IndexDef> added = now.get().indexes().stream().filter(i -> !known.contains(i.relation())).toList();
        if (!added.isEmpty()) {
            maintain(now.get(), added, key, before, after, rev);
        }
    }

    /**
     * The item's key in {@code index}, as CQL values: the core's rule for a stored item (empty when it
     * lacks an index key attribute or holds one of another type or empty), so a backfill and an old
     * version's entry agree with what a put wrote.
     */
    static Optional<IndexKey> indexKey(CatalogRow row, TableDescription table, IndexDef index, Item item) {
        KeySchema key = index.keySchema();
        return ItemRules.entryKeyOfStoredItem(table, index.name(), item).map(k -> new IndexKey(
                DataTables.cqlValue(DataTables.type(row, key.partitionKey()), k.partition()),
                k.sort().map(v -> DataTables.cqlValue(DataTables.type(row, key.sortKey().orElseThrow()), v)).orElse(null)));
    }

    private static BaseKey baseKey(CatalogRow row, Key key) {
        Object pk = DataTables.cqlValue(DataTables.type(row, row.keySchema().partitionKey()), key.partition());
        Object sk = key.sort().map(s -> DataTables.cqlValue(DataTables.type(row, row.keySchema().sortKey().orElseThrow()), s))
                .orElse(null);
        return new BaseKey(pk, sk);
    }

    /** An item's stored text and revision. */
    private record Stored(String json, long rev) {
    }

    private Stored serialRead(CatalogRow row, BaseKey key) {
        Row r = cql.serialRead("reading an item of '" + row.tableName() + "' after an uncertain write",
                "SELECT item, rev FROM " + row.itemsTable() + " WHERE pk = ?" + (key.sk() != null ? " AND sk = ?" : ""),
                key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }

    private Stored read(CatalogRow row, BaseKey key) {
        Row r = cql.read("reading an item of '" + row.tableName() + "'", "SELECT item, rev FROM " + row.itemsTable()
                + " WHERE pk = ?" + (key.sk() != null ? " AND sk = ?" : ""), key.values()).one();
        return r == null ? null : new Stored(r.getString("item"), r.getLong("rev"));
    }

    private static String insertItem(CatalogRow row) {
        boolean composite = row.keySchema().sortKey().isPresent();
        return "INSERT INTO " + row.itemsTable() + " (pk" + (composite ? ", sk" : "") + ", item, rev) VALUES (?"
                + (composite ? ", ?" : "") + ", ?, ?) IF NOT EXISTS";
    }

    private static String updateItem(CatalogRow row) {
        return "UPDATE " + row.itemsTable() + " SET item = ?, rev = ? WHERE pk = ?"
                + (row.keySchema().sortKey().isPresent() ? " AND sk = ?" : "") + " IF rev = ?";
    }

    private static String deleteItem(CatalogRow row) {
        return "DELETE FROM " + row.itemsTable() + " WHERE pk = ?"
                + (row.keySchema().sortKey().isPresent() ? " AND sk = ?" : "") + " IF rev = ?";
    }

    private BoundStatement insertEntry(CatalogRow row, IndexDef index, IndexKey key, BaseKey base, Item item, long rev) {
        boolean indexSort = index.keySchema().sortKey().isPresent();
        boolean baseSort = row.keySchema().sortKey().isPresent();
        String cqlText = "INSERT INTO " + row.qualified(index) + " (ipk" + (indexSort ? ", isk" : "") + ", bpk"
                + (baseSort ? ", bsk" : "") + ", item) VALUES (?" + (indexSort ? ", ?" : "") + ", ?"
                + (baseSort ? ", ?" : "") + ", ?) USING TIMESTAMP ?";
        List<Object> values = new ArrayList<>(key.values());
        values.addAll(List.of(base.values()));
        values.add(ItemJson.encode(project(row, index, item)));
        values.add(rev);
        return cql.bind("writing an entry of index '" + index.name() + "'", cqlText, values.toArray());
    }

    private BoundStatement deleteEntry(CatalogRow row, IndexDef index, IndexKey key, BaseKey base, long rev) {
        boolean indexSort = index.keySchema().sortKey().isPresent();
        boolean baseSort = row.keySchema().sortKey().isPresent();
        String cqlText = "DELETE FROM " + row.qualified(index) + " USING TIMESTAMP ? WHERE ipk = ?"
                + (indexSort ? " AND isk = ?" : "") + " AND bpk = ?" + (baseSort ? " AND bsk = ?" : "");
        List<Object> values = new ArrayList<>();
        values.add(rev);
        values.addAll(key.values());
        values.addAll(List.of(base.values()));
        return cql.bind("deleting an entry of index '" + index.name() + "'", cqlText, values.toArray());
    }

    /** The attributes an index entry holds [projection]: the table's and the index's keys, plus what the projection names. */
    static Item project(CatalogRow row, IndexDef index, Item item) {
        if (index.projection().type() == ProjectionType.ALL) {
            return item;
        }
        Set<String> keep = new HashSet<>();
        keep.add(row.keySchema().partitionKey());
        row.keySchema().sortKey().ifPresent(keep::add);
        keep.add(index.keySchema().partitionKey());
        index.keySchema().sortKey().ifPresent(keep::add);
        keep.addAll(index.projection().nonKeyAttributes());
        Map<String, AttributeValue> projected = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> {
            if (keep.contains(name)) {
                projected.put(name, value);
            }
        });
        return Item.of(projected);
    }

    private static Object[] values(BaseKey key, Object... more) {
        List<Object> all = new ArrayList<>(List.of(key.values()));
        all.addAll(List.of(more));
        return all.toArray();
    }

    private static Object[] values(String json, long rev, BaseKey key, long expected) {
        List<Object> all = new ArrayList<>();
        all.add(json);
        all.add(rev);
        all.addAll(List.of(key.values()));
        all.add(expected);
        return all.toArray();
    }

    /** A base key as CQL values: {@code sk} is null for a hash-only table. */
    record BaseKey(Object pk, Object sk) {
        Object[] values() {
            return sk == null ? new Object[] {pk} : new Object[] {pk, sk};
        }
    }

    /** An index key as CQL values: {@code sk} is null for a hash-only index. */
    record IndexKey(Object pk, Object sk) {
        List<Object> values() {
            return sk == null ? List.of(pk) : List.of(pk, sk);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Rows

    private CatalogRow row(String accountId, String tableName) {
        return catalog.find(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    /** The row of a table items may be read and written in: ACTIVE (a CREATING table is not found yet, as on DynamoDB). */
    private CatalogRow activeRow(String accountId, String tableName) {
        CatalogRow row = row(accountId, tableName);
        if (row.status() != TableStatus.ACTIVE) {
            throw new StorageException(ErrorReason.TABLE_NOT_FOUND, "table '" + tableName + "' is " + row.status()
                    + ", not ACTIVE");
        }
        return row;
    }

    /** Runs {@code work}; a statement refused because its table was dropped meanwhile is TableNotFound. */
    private static <T> T whileTableExists(String tableName, String doing, Supplier<T> work) {
        try {
            return work.get();
        } catch (StorageException e) {
            if (DriverFailures.isMissingTable(e)) {
                throw new StorageException(ErrorReason.TABLE_NOT_FOUND, "table '" + tableName + "' was deleted while "
                        + doing + ": " + e.getMessage(), e);
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------------------------------
    // For tests and operators: what the data tables hold

    /** The items of one partition, in the order Cassandra keeps them (clustering order). */
    List<Item> partitionItems(String accountId, String tableName, AttributeValue partition) {
        CatalogRow row = activeRow(accountId, tableName);
        Object pk = DataTables.cqlValue(DataTables.type(row, row.keySchema().partitionKey()), partition);
        List<Item> items = new ArrayList<>();
        for (Row r : cql.read("reading a partition", "SELECT item FROM " + row.itemsTable() + " WHERE pk = ?", pk)) {
            items.add(ItemJson.decode(r.getString("item")));
        }
        return items;
    }

    /** Every entry of an index: partitions in token order, entries in clustering order. */
    List<Item> indexItems(String accountId, String tableName, String indexName) {
        CatalogRow row = row(accountId, tableName);
        IndexDef index = row.index(indexName).orElseThrow(() -> StorageException.validation(
                "table '" + tableName + "' has no index named '" + indexName + "'"));
        List<Item> items = new ArrayList<>();
        for (Row r : cql.read("reading an index", "SELECT item FROM " + row.qualified(index))) {
            items.add(ItemJson.decode(r.getString("item")));
        }
        return items;
    }

    /** Every item of the table, in token order. */
    List<Item> allItems(String accountId, String tableName) {
        CatalogRow row = row(accountId, tableName);
        List<Item> items = new ArrayList<>();
        for (Row r : cql.read("reading a table", "SELECT item FROM " + row.itemsTable())) {
            items.add(ItemJson.decode(r.getString("item")));
        }
        return items;
    }

    /** The table's data tables (qualified), for tests that check DeleteTable dropped them. */
    List<String> dataTables(String accountId, String tableName) {
        return row(accountId, tableName).dataTables();
    }
}

package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableCreator;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table lifecycle on Cassandra: create, describe, list, add a GSI (with its backfill), recount.
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
 * <p>Items and their index entries: {@link CassandraItems}.
 */
final class CassandraTables implements TableCatalog, TableCreator, TableStatistics {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraTables.class);

    /** Attempts of one conditional write before giving up with Transient. */
    private static final int MAX_ATTEMPTS = 32;

    private final Cql cql;
    private final CatalogStore catalog;
    private final IndexEntries entries;
    private final CassandraConfig config;

    CassandraTables(Cql cql, CatalogStore catalog, IndexEntries entries, CassandraConfig config) {
        this.cql = cql;
        this.catalog = catalog;
        this.entries = entries;
        this.config = config;
    }

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
        // No read fixes an instant here [C1], so no window between two of them either [I1].
        request.changeLog().requireOffOn("Cassandra", request.tableName());
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
            for (Row r : DriverFailures.whileTableExists(row.tableName(), doing, () -> cql.read(doing, ItemStatements.selectItems(row.itemsTable())))) {
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
            CatalogRow row = catalog.require(accountId, tableName);
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
        TableDescription table = row.description();
        for (Row r : cql.read(doing, ItemStatements.selectKeyedItems(row))) {
            Item item = ItemJson.decode(r.getString("item"));
            Optional<IndexKey> key = IndexKey.of(row, table, index, item);
            if (key.isEmpty()) {
                continue;   // not in this index (attribute missing, or of another type than declared)
            }
            BaseKey base = new BaseKey(r.getObject("pk"), row.keySchema().sortKey().isPresent() ? r.getObject("sk") : null);
            cql.execute(doing, entries.insert(row, index, key.get(), base, item, r.getLong("rev")));
        }
    }

    private CatalogRow activateIndex(String accountId, String tableName, IndexDef index) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogRow row = catalog.require(accountId, tableName);
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
}

package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableCreator;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table lifecycle on Cassandra: create, describe, list, the steps of adding a GSI ({@link CassandraIndexBuild})
 * and of a recount.
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
        CatalogRow row = new CatalogRow(request.accountId(), tableName, tableId, request.tableArn(),
                TableStatus.CREATING, now, keyspace, request.keySchema(), request.attributeDefinitions(), indexes,
                request.stream(), request.timeToLive(), 1);
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
            Counts counts = catalog.statistics(row.tableId());
            TableDescription described = row.description(catalog.restore(row.tableId()))
                    .withCounts(counts.items(), counts.bytes());
            for (Map.Entry<String, Counts> index : counts.indexes().entrySet()) {
                described = described.withIndexCounts(index.getKey(), index.getValue().items(), index.getValue().bytes());
            }
            return described;
        });
    }

    /** An ACTIVE table's row, with the counts {@code table_statistics} holds. */
    private record Counted(CatalogRow row, Counts recorded) implements TableStatistics.Counted {
    }

    @Override
    public List<TableStatistics.Counted> activeTables() {
        List<TableStatistics.Counted> out = new ArrayList<>();
        for (CatalogRow row : catalog.all()) {
            if (row.status() == TableStatus.ACTIVE) {
                out.add(new Counted(row, catalog.statistics(row.tableId())));
            }
        }
        return out;
    }

    /**
     * Counts the table's items and their JSON bytes by reading its items table, and each ACTIVE index's
     * entries by reading its index table (in pages of about 4 MiB). A full read of every token range: the
     * statistics poller runs it every few minutes, so its cost is spread, and the counts are approximate as
     * DynamoDB's are.
     */
    @Override
    public Counts count(TableStatistics.Counted table) {
        return count(((Counted) table).row());
    }

    @Override
    public void record(TableStatistics.Counted table, Counts counts) {
        catalog.recordStatistics(((Counted) table).row().tableId(), counts);
    }

    /**
     * The table's items and the bytes of their stored JSON, and the same of each ACTIVE index's entries,
     * read page by page: the statistics pass's figures, and a completing restore's (the same measure, so the
     * next pass changes nothing).
     */
    Counts count(CatalogRow row) {
        Map<String, Counts> indexes = new HashMap<>();
        for (IndexDef index : row.indexes()) {
            if (index.status() == IndexStatus.ACTIVE) {
                indexes.put(index.name(), count(row, "the entries of index '" + index.name() + "'", row.qualified(index)));
            }
        }
        Counts base = count(row, "the items", row.itemsTable());
        return new Counts(base.items(), base.bytes(), indexes);
    }

    private Counts count(CatalogRow row, String what, String qualifiedTable) {
        String doing = "counting " + what + " of table '" + row.tableName() + "'";
        return DriverFailures.whileTableExists(row.tableName(), doing, () -> {
            long items = 0;
            long bytes = 0;
            for (Row r : cql.readSized(doing, "item", ItemStatements.selectItems(qualifiedTable))) {
                items++;
                bytes += Item.utf8Length(r.getString("item"));
            }
            return new Counts(items, bytes);
        });
    }

    @Override
    public List<String> tableNames(String accountId) {
        return catalog.names(accountId);
    }

    /** Not one transaction: each step of {@link CassandraIndexBuild} is applied when the core calls it. */
    @Override
    public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
        return work.run(new CassandraIndexBuild(cql, catalog, entries, doing));
    }
}

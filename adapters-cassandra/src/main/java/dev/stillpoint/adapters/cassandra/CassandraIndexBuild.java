package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of adding a GSI on Cassandra, each applied when called (not atomic: Cassandra has no
 * multi-partition transaction). The index table exists before the catalog row names it (so a writer that
 * sees the index can write to it); the index is recorded CREATING by a lightweight transaction on the
 * row's revision; every backfilled entry is written at its item's revision ({@code USING TIMESTAMP}), so a
 * writer's later delete of that version always wins (rule 2 of {@link CassandraItems}), and a writer
 * that committed before the index was recorded is covered by the scan, one after by its second look at
 * the catalog (rule 3). A later attempt finishes an index an earlier one left CREATING.
 */
final class CassandraIndexBuild implements IndexBuild {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraIndexBuild.class);

    /** Attempts of one conditional write before giving up with Transient. */
    private static final int MAX_ATTEMPTS = 32;

    private final Cql cql;
    private final CatalogStore catalog;
    private final IndexEntries entries;
    private final String doing;

    CassandraIndexBuild(Cql cql, CatalogStore catalog, IndexEntries entries, String doing) {
        this.cql = cql;
        this.catalog = catalog;
        this.entries = entries;
        this.doing = doing;
    }

    /** An items-table row: its key as CQL values, its revision, and the item. */
    private record Stored(CqlKey key, long rev, Item item) implements BaseItem {
    }

    @Override
    public boolean atomic() {
        return false;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(StorageTable.class::cast);
    }

    @Override
    public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
        CatalogRow row = (CatalogRow) table;
        GlobalSecondaryIndex gsi = after.gsi(indexName).orElseThrow();
        IndexDef index = IndexDef.of(gsi, IndexStatus.CREATING, true, DataNames.newIndexTable(row.tableId(), true));
        List<IndexDef> indexes = new ArrayList<>(row.indexes());
        indexes.add(index);
        CatalogRow updated = row.withIndexes(after.attributeDefinitions(), indexes, row.revision() + 1);
        cql.ddl("creating the table of index '" + indexName + "' of '" + row.tableName() + "'",
                DataTables.createIndexTable(updated, index));
        if (!catalog.updateIndexes(updated, row.revision())) {
            dropQuietly(updated.qualified(index));
            return Optional.empty();
        }
        return Optional.of(updated);
    }

    @Override
    public StorageTable resume(StorageTable table, String indexName) {
        return table;
    }

    /** The items table read in pages sized by bytes ({@link SizedRows}), each row with its revision. */
    @Override
    public ItemScan scan(StorageTable table) {
        CatalogRow row = (CatalogRow) table;
        boolean sorted = row.keySchema().sortKey().isPresent();
        Iterator<Row> rows = cql.readSized(doing, "item", ItemStatements.selectKeyedItems(row)).iterator();
        return new ItemScan() {
            @Override
            public List<BaseItem> next(int max) {
                List<BaseItem> page = new ArrayList<>(max);
                while (page.size() < max && rows.hasNext()) {
                    Row r = rows.next();
                    page.add(new Stored(new CqlKey(r.getObject("pk"), sorted ? r.getObject("sk") : null),
                            r.getLong("rev"), ItemJson.decode(r.getString("item"))));
                }
                return page;
            }

            @Override
            public void close() {
                // Nothing is held between pages but the paging state in the iterator.
            }
        };
    }

    @Override
    public void write(StorageTable table, String indexName, List<BackfillEntry> backfilled) {
        CatalogRow row = (CatalogRow) table;
        IndexDef index = row.index(indexName).orElseThrow();
        for (BackfillEntry entry : backfilled) {
            Stored stored = (Stored) entry.item();
            cql.execute(doing, entries.insert(row, index, CqlKey.of(row, index.keySchema(), entry.indexKey()), stored.key(),
                    stored.item(), stored.rev()));
        }
    }

    /** Sets the index ACTIVE by a lightweight transaction on the row's revision, read again after each loss. */
    @Override
    public void activate(StorageTable table, String indexName) {
        CatalogRow built = (CatalogRow) table;
        String relation = built.index(indexName).orElseThrow().relation();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogRow row = catalog.require(built.accountId(), built.tableName());
            Optional<IndexDef> current = row.index(indexName).filter(i -> i.relation().equals(relation));
            if (current.isEmpty()) {
                throw StorageException.resourceInUse("index '" + indexName + "' of table '" + row.tableName()
                        + "' was replaced while it was being built");
            }
            if (current.get().status() == IndexStatus.ACTIVE) {
                return;
            }
            List<IndexDef> indexes = row.indexes().stream()
                    .map(i -> i.name().equals(indexName) ? i.withStatus(IndexStatus.ACTIVE, false) : i).toList();
            if (catalog.updateIndexes(row.withIndexes(row.definitions(), indexes, row.revision() + 1), row.revision())) {
                return;
            }
        }
        throw new StorageException(ErrorReason.TRANSIENT, "table '" + built.tableName() + "' changed " + MAX_ATTEMPTS
                + " times while index '" + indexName + "' was being activated; try again");
    }

    private void dropQuietly(String table) {
        try {
            cql.ddl("dropping the unused index table " + table, "DROP TABLE IF EXISTS " + table);
        } catch (RuntimeException e) {
            LOG.warn("could not drop the unused index table {}: {}", table, e.getMessage());
        }
    }
}

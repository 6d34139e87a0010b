package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.TimeToLive;
import java.time.Instant;
import java.util.ArrayList;
import dev.stillpoint.ports.out.StorageTable;
import java.util.List;
import java.util.Optional;

/**
 * One row of {@code <prefix>_catalog.tables}: a DynamoDB table's definition, state and where its
 * data lives. {@code revision} grows by one with every change of the row, and every change is a
 * lightweight transaction conditional on it, so concurrent UpdateTables never lose each other.
 */
record CatalogRow(String accountId, String tableName, String tableId, String tableArn, TableStatus status,
                  Instant createdAt, String dataKeyspace, KeySchema keySchema, List<AttributeDefinition> definitions,
                  List<IndexDef> indexes, Optional<StreamSpecification> stream, Optional<TimeToLive> timeToLive,
                  long revision) implements StorageTable {

    /** Cassandra's item writes read the row each time (a stamp read would cost as much as the row). */

    CatalogRow {
        definitions = List.copyOf(definitions);
        indexes = List.copyOf(indexes);
    }

    /** The table's description from its row alone, counts 0: DescribeTable adds the counts from table_statistics. */
    @Override
    public TableDescription description() {
        return description(Optional.empty());
    }

    /**
     * The description with the table's restore, if it was restored. The summary is in progress only while
     * the row is CREATING: the row's activation is the commit point of a restore's completion [E4].
     */
    TableDescription description(Optional<RestoreRecord> restore) {
        Optional<RestoreSummary> summary = restore.filter(r -> r.tableId().equals(tableId))
                .map(r -> r.summary(status == TableStatus.CREATING));
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        List<LocalSecondaryIndex> lsis = new ArrayList<>();
        for (IndexDef index : indexes) {
            if (index.global()) {
                gsis.add(index.toGsi());
            } else {
                lsis.add(index.toLsi());
            }
        }
        return new TableDescription(accountId, tableName, tableId, tableArn, status, createdAt, keySchema, definitions,
                gsis, lsis, List.of(), stream, timeToLive, summary, Optional.empty(), 0, 0);
    }

    /** The items table, qualified with the account's keyspace. */
    String itemsTable() {
        return dataKeyspace + "." + DataNames.itemsTable(tableId);
    }

    /** An index table, qualified with the account's keyspace. */
    String qualified(IndexDef index) {
        return dataKeyspace + "." + index.relation();
    }

    /** Every data table of this table, the items table first: the one list CreateTable and DeleteTable use. */
    List<String> dataTables() {
        List<String> all = new ArrayList<>();
        all.add(itemsTable());
        indexes.forEach(i -> all.add(qualified(i)));
        return all;
    }

    /** The declared type of {@code attribute}, if it has a definition. */
    Optional<ScalarType> typeOf(String attribute) {
        return definitions.stream().filter(d -> d.name().equals(attribute)).map(AttributeDefinition::type).findFirst();
    }

    /** The index named {@code name}, if the table has one. */
    Optional<IndexDef> index(String name) {
        return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    CatalogRow withStatus(TableStatus newStatus, long newRevision) {
        return new CatalogRow(accountId, tableName, tableId, tableArn, newStatus, createdAt, dataKeyspace, keySchema,
                definitions, indexes, stream, timeToLive, newRevision);
    }

    CatalogRow withIndexes(List<AttributeDefinition> newDefinitions, List<IndexDef> newIndexes, long newRevision) {
        return new CatalogRow(accountId, tableName, tableId, tableArn, status, createdAt, dataKeyspace, keySchema,
                newDefinitions, newIndexes, stream, timeToLive, newRevision);
    }
}

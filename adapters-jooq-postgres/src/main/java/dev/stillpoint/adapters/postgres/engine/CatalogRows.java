package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_VECTOR_INDEXES;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpTablesRecord;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpVectorIndexesRecord;
import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.sqlcatalog.TableDescriptions;
import dev.stillpoint.sqlcatalog.TableLoads;
import dev.stillpoint.sqlcatalog.TableRows;
import java.time.Instant;
import java.util.ArrayList;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.StorageTable;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SelectConditionStep;

/**
 * The catalog rows of one table and how they map to the domain: the description, the lifecycle
 * state (status, due time, retry class), and the table's data relations. Every method runs on the
 * caller's connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {


    /** The lock a load takes on the table's row. */
    enum RowLock {
        /** No lock: a plain read (the shared layout's snapshot reads the row in its MVCC snapshot). */
        NONE,
        /** Item writes: blocks UpdateTable and DeleteTable (FOR UPDATE) until the write commits. */
        KEY_SHARE,
        /** The separate layout's snapshot open, until the data transaction pinned its snapshot [P2]. */
        SHARE,
        /** UpdateTable and DeleteTable [P2]. */
        UPDATE
    }

    private CatalogRows() {
    }

    /** A table's row and what it names, loaded together; {@code full} when vector indexes and restore were read too. */
    record Loaded(SpTablesRecord row, List<SpIndexesRecord> indexes, List<SpVectorIndexesRecord> vectors,
                  TableRecord record, boolean full) implements StorageTable {

        @Override
        public Optional<CatalogStamp> stamp() {
            return Optional.of(new CatalogStamp(row.getTableId(), row.getCatalogVersion()));
        }

        TableId id() {
            return new TableId(row.getTableId());
        }

        @Override
        public TableDescription description() {
            return record.description();
        }

        ScalarType pkType() {
            return ScalarType.valueOf(row.getPartitionKeyType());
        }

        Optional<ScalarType> skType() {
            return Optional.ofNullable(row.getSortKeyType()).map(ScalarType::valueOf);
        }

        KeySchema keySchema() {
            return new KeySchema(row.getPartitionKeyName(), Optional.ofNullable(row.getSortKeyName()));
        }

        RelationLayout base() {
            return RelationLayout.base(DataRelation.fromCatalog(row.getRelationName()), pkType(), skType());
        }

        RelationLayout index(SpIndexesRecord index) {
            return RelationLayout.index(DataRelation.fromCatalog(index.getRelationName()),
                    ScalarType.valueOf(index.getPartitionKeyType()),
                    Optional.ofNullable(index.getSortKeyType()).map(ScalarType::valueOf), pkType(), skType());
        }

        /**
         * Every data relation of the table: the base first, then each GSI and LSI relation by ordinal,
         * then each vector-index relation. The one list [P6]: the lock probe, the drop, the snapshot's
         * LOCK TABLE and the operator's holder query all take their relations from here. Last, the change
         * log relation [I1], whatever the setting (a log switched off keeps its empty relation until the table
         * goes): dropped with the table if it exists, locked by a snapshot where it exists.
         */
        List<DataRelation> relations() {
            if (!full) {
                throw new IllegalStateException("the relations of a table need its full catalog load");
            }
            List<DataRelation> all = new ArrayList<>();
            all.add(DataRelation.fromCatalog(row.getRelationName()));
            indexes.forEach(i -> all.add(DataRelation.fromCatalog(i.getRelationName())));
            vectors.forEach(v -> all.add(DataRelation.fromCatalog(v.getRelationName())));
            all.add(changeRelation().relation());
            return all;
        }

        /** The change log relation [I1], when the description says the table keeps a log. */
        Optional<ChangeRelation> changes() {
            if (!description().changeLog().enabled()) {
                return Optional.empty();
            }
            return Optional.of(changeRelation());
        }

        /** The table's change log relation [I1], whether or not it exists. */
        ChangeRelation changeRelation() {
            return ChangeRelation.of(row.getTableId(), pkType(), skType());
        }
    }

    /** The row, its indexes, vector indexes and restore record: everything a description or a drop needs. */
    static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return load(ctx, accountId, tableName, lock, true);
    }

    /**
     * The row and its GSI/LSI rows only: what an item read or write needs (two round trips, not four).
     * The description it carries has no vector indexes and no restore summary.
     */
    static Optional<Loaded> loadForItems(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return load(ctx, accountId, tableName, lock, false);
    }

    private static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName, RowLock lock, boolean full) {
        SelectConditionStep<SpTablesRecord> select = ctx.selectFrom(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId).and(SP_TABLES.TABLE_NAME.eq(tableName)));
        SpTablesRecord row = switch (lock) {
            case NONE -> select.fetchOne();
            case KEY_SHARE -> select.forKeyShare().fetchOne();
            case SHARE -> select.forShare().fetchOne();
            case UPDATE -> select.forUpdate().fetchOne();
        };
        if (row == null) {
            return Optional.empty();
        }
        List<SpIndexesRecord> indexes = TableLoads.indexes(ctx, SP_INDEXES, row.getTableId());
        if (!full) {
            // Not the state the control plane decides with (that comes from a full load): a restoring row reads CREATING.
            TableRecord record = new TableRecord(TableDescriptions.of(row, indexes, List.of(), Optional.empty()),
                    TableDescriptions.state(row, false));
            return Optional.of(new Loaded(row, indexes, List.of(), record, false));
        }
        List<SpVectorIndexesRecord> vectors = TableLoads.vectorIndexes(ctx, SP_VECTOR_INDEXES, row.getTableId());
        Optional<RestoreSummary> restore = TableLoads.restore(ctx, row.getTableId());
        TableRecord record = new TableRecord(
                TableDescriptions.of(row, indexes, vectors.stream().map(TableDescriptions::vectorIndex).toList(), restore),
                TableDescriptions.state(row, restore.map(RestoreSummary::restoreInProgress).orElse(false)));
        return Optional.of(new Loaded(row, indexes, vectors, record, true));
    }

    /**
     * Inserts a CREATING row and its index rows on {@code catalog}, and creates every data relation on
     * {@code data} (the same transaction on the shared layout).
     */
    static TableDescription insertCreating(DSLContext catalog, DSLContext data, CreateTableRequest request,
                                           Instant now, Instant activateAt) {
        TableId id = TableId.random();
        DataRelation baseRelation = DataRelation.of(RelationName.base(id.value()));
        TableDescription description = request.describe(id.value(), TableRows.arn(request), now);
        ScalarType pkType = typeOf(description, request.keySchema().partitionKey());
        Optional<ScalarType> skType = request.keySchema().sortKey().map(s -> typeOf(description, s));
        TableRows.insertCreating(catalog, request, description, baseRelation.name(), activateAt, pkType.name(),
                skType.map(Enum::name).orElse(null));
        RelationLayout.base(baseRelation, pkType, skType).createAll(data).forEach(q -> q.execute());
        DataRelations.register(data, baseRelation.name());
        if (request.changeLog().enabled()) {
            // In the data transaction that creates the base relation: the START row's xid is this
            // transaction's, which every snapshot of the ACTIVE table sees [I4].
            ChangeRelation changes = ChangeRelation.of(id.value(), pkType, skType);
            changes.create().forEach(data::execute);
            DataRelations.register(data, changes.relation().name());
        }
        int ordinal = 0;
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            insertIndex(catalog, data, id, "GSI", ordinal++, g.name(), g.keySchema(), CatalogJson.projection(g.projection()),
                    IndexStatus.ACTIVE, false, description, pkType, skType);
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            insertIndex(catalog, data, id, "LSI", ordinal++, l.name(), l.keySchema(), CatalogJson.projection(l.projection()),
                    IndexStatus.ACTIVE, false, description, pkType, skType);
        }
        return description;
    }

    /** Inserts one index row on {@code catalog} and creates its relation on {@code data}. */
    static RelationLayout insertIndex(DSLContext catalog, DSLContext data, TableId id, String kind, int ordinal,
                                      String name, KeySchema key, String projectionJson, IndexStatus status,
                                      boolean backfilling, TableDescription description, ScalarType tablePkType,
                                      Optional<ScalarType> tableSkType) {
        DataRelation relation = DataRelation.of(RelationName.index(id.value(),
                kind.equals("GSI") ? RelationName.Kind.GSI : RelationName.Kind.LSI, ordinal));
        ScalarType pkType = typeOf(description, key.partitionKey());
        Optional<ScalarType> skType = key.sortKey().map(s -> typeOf(description, s));
        TableRows.insertIndex(catalog, id.value(), kind, ordinal, name, key, relation.name(), pkType.name(),
                skType.map(Enum::name).orElse(null), projectionJson, status, backfilling);
        RelationLayout layout = RelationLayout.index(relation, pkType, skType, tablePkType, tableSkType);
        layout.createAll(data).forEach(q -> q.execute());
        DataRelations.register(data, relation.name());
        return layout;
    }

    private static ScalarType typeOf(TableDescription d, String attribute) {
        return d.definition(attribute).map(a -> a.type())
                .orElseThrow(() -> StorageException.validation("key attribute '" + attribute + "' has no attribute definition"));
    }
}

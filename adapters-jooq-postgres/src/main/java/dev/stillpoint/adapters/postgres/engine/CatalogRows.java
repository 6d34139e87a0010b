package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.itemjson.CatalogJson;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_RESTORE_RECORDS;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_SETTINGS;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_VECTOR_INDEXES;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpTablesRecord;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpVectorIndexesRecord;
import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.adapters.postgres.storage.TableId;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.VectorIndex;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.SelectConditionStep;

/**
 * The catalog rows of one table and how they map to the domain: the description, the lifecycle
 * state (status, due time, retry class), and the table's data relations. Every method runs on the
 * caller's connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {

    static final String DELAY_SETTING = "control_plane_delay_ms";

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
                  TableRecord record, boolean full) {

        TableId id() {
            return new TableId(row.getTableId());
        }

        TableDescription description() {
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
         * LOCK TABLE and the operator's holder query all take their relations from here.
         */
        List<DataRelation> relations() {
            if (!full) {
                throw new IllegalStateException("the relations of a table need its full catalog load");
            }
            List<DataRelation> all = new ArrayList<>();
            all.add(DataRelation.fromCatalog(row.getRelationName()));
            indexes.forEach(i -> all.add(DataRelation.fromCatalog(i.getRelationName())));
            vectors.forEach(v -> all.add(DataRelation.fromCatalog(v.getRelationName())));
            return all;
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
        List<SpIndexesRecord> indexes = ctx.selectFrom(SP_INDEXES)
                .where(SP_INDEXES.TABLE_ID.eq(row.getTableId()))
                .orderBy(SP_INDEXES.ORDINAL)
                .fetch();
        if (!full) {
            // Not the state the control plane decides with (that comes from a full load): a restoring row reads CREATING.
            TableRecord record = new TableRecord(describe(row, indexes, List.of(), Optional.empty()), state(row, false));
            return Optional.of(new Loaded(row, indexes, List.of(), record, false));
        }
        List<SpVectorIndexesRecord> vectors = ctx.selectFrom(SP_VECTOR_INDEXES)
                .where(SP_VECTOR_INDEXES.TABLE_ID.eq(row.getTableId()))
                .orderBy(SP_VECTOR_INDEXES.ORDINAL)
                .fetch();
        Optional<RestoreSummary> restore = ctx.selectFrom(SP_RESTORE_RECORDS)
                .where(SP_RESTORE_RECORDS.TABLE_ID.eq(row.getTableId()))
                .fetchOptional(r -> new RestoreSummary(Optional.ofNullable(r.getSourceBackupArn()),
                        Optional.ofNullable(r.getSourceTableArn()), Instant.ofEpochMilli(r.getRestoreDateTime()),
                        Boolean.TRUE.equals(r.getRestoreInProgress())));
        TableRecord record = new TableRecord(describe(row, indexes, vectors, restore),
                state(row, restore.map(RestoreSummary::restoreInProgress).orElse(false)));
        return Optional.of(new Loaded(row, indexes, vectors, record, true));
    }

    /** Whether the table's restore is in progress: its row is then RESTORING, its due time the restore's stamp [E5]. */
    static org.jooq.Condition restoreInProgress() {
        return DSL.exists(DSL.selectOne().from(SP_RESTORE_RECORDS)
                .where(SP_RESTORE_RECORDS.TABLE_ID.eq(SP_TABLES.TABLE_ID), SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS.isTrue()));
    }

    /** Inserts the restore record of a restoring table. */
    static void insertRestoreRecord(DSLContext ctx, String tableId, RestoreSummary summary) {
        ctx.insertInto(SP_RESTORE_RECORDS)
                .set(SP_RESTORE_RECORDS.TABLE_ID, tableId)
                .set(SP_RESTORE_RECORDS.SOURCE_BACKUP_ARN, summary.sourceBackupArn().orElse(null))
                .set(SP_RESTORE_RECORDS.SOURCE_TABLE_ARN, summary.sourceTableArn().orElse(null))
                .set(SP_RESTORE_RECORDS.RESTORE_DATE_TIME, summary.restoreDateTime().toEpochMilli())
                .set(SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS, summary.restoreInProgress())
                .execute();
    }

    static TableState state(SpTablesRecord row, boolean restoring) {
        Instant due = row.getStatusDueAt() == null ? Instant.EPOCH : Instant.ofEpochMilli(row.getStatusDueAt());
        return switch (TableStatus.valueOf(row.getStatus())) {
            case CREATING -> restoring ? new TableState.Restoring(due) : new TableState.Creating(due);
            case ACTIVE -> new TableState.Active();
            case DELETING -> new TableState.Deleting(due, row.getDropRetry() == null
                    ? TableState.DropRetry.SCHEDULED : TableState.DropRetry.valueOf(row.getDropRetry()));
        };
    }

    private static TableDescription describe(SpTablesRecord row, List<SpIndexesRecord> indexes,
                                             List<SpVectorIndexesRecord> vectorRows, Optional<RestoreSummary> restore) {
        return CatalogDamage.reading(row.getTableName(), () -> {
            List<GlobalSecondaryIndex> gsis = new ArrayList<>();
            List<LocalSecondaryIndex> lsis = new ArrayList<>();
            for (SpIndexesRecord i : indexes) {
                KeySchema key = new KeySchema(i.getPartitionKeyName(), Optional.ofNullable(i.getSortKeyName()));
                if (i.getKind().equals("GSI")) {
                    gsis.add(new GlobalSecondaryIndex(i.getIndexName(), key, CatalogJson.projection(i.getProjectionJson()),
                            IndexStatus.valueOf(i.getStatus()), Boolean.TRUE.equals(i.getBackfilling()), 0, 0));
                } else {
                    lsis.add(new LocalSecondaryIndex(i.getIndexName(), key, CatalogJson.projection(i.getProjectionJson()), 0, 0));
                }
            }
            List<VectorIndex> vectors = vectorRows.stream()
                    .map(v -> new VectorIndex(v.getIndexName(), v.getAttributeName(), v.getDimensions(), v.getMetric(),
                            IndexStatus.valueOf(v.getStatus())))
                    .toList();
            return new TableDescription(row.getAccountId(), row.getTableName(), row.getTableId(), row.getTableArn(),
                    TableStatus.valueOf(row.getStatus()), Instant.ofEpochMilli(row.getCreatedAt()),
                    new KeySchema(row.getPartitionKeyName(), Optional.ofNullable(row.getSortKeyName())),
                    CatalogJson.definitions(row.getAttributeDefinitionsJson()), gsis, lsis, vectors,
                    CatalogJson.stream(row.getStreamSpecJson()), CatalogJson.ttl(row.getTtlJson()), restore,
                    Optional.empty(), row.getItemCount(), row.getSizeBytes());
        });
    }

    /**
     * Inserts a CREATING row and its index rows on {@code catalog}, and creates every data relation on
     * {@code data} (the same transaction on the shared layout).
     */
    static TableDescription insertCreating(DSLContext catalog, DSLContext data, CreateTableRequest request,
                                           Instant now, Instant activateAt) {
        TableId id = TableId.random();
        DataRelation baseRelation = DataRelation.base(id);
        String arn = "arn:aws:dynamodb:local:" + request.accountId() + ":table/" + request.tableName();
        TableDescription description = request.describe(id.value(), arn, now);
        ScalarType pkType = typeOf(description, request.keySchema().partitionKey());
        Optional<ScalarType> skType = request.keySchema().sortKey().map(s -> typeOf(description, s));
        catalog.insertInto(SP_TABLES)
                .set(SP_TABLES.ACCOUNT_ID, request.accountId())
                .set(SP_TABLES.TABLE_NAME, request.tableName())
                .set(SP_TABLES.TABLE_ID, id.value())
                .set(SP_TABLES.TABLE_ARN, arn)
                .set(SP_TABLES.RELATION_NAME, baseRelation.name())
                .set(SP_TABLES.STATUS, TableStatus.CREATING.name())
                .set(SP_TABLES.CREATED_AT, now.toEpochMilli())
                .set(SP_TABLES.STATUS_DUE_AT, activateAt.toEpochMilli())
                .set(SP_TABLES.PARTITION_KEY_NAME, request.keySchema().partitionKey())
                .set(SP_TABLES.PARTITION_KEY_TYPE, pkType.name())
                .set(SP_TABLES.SORT_KEY_NAME, request.keySchema().sortKey().orElse(null))
                .set(SP_TABLES.SORT_KEY_TYPE, skType.map(Enum::name).orElse(null))
                .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(request.attributeDefinitions()))
                .set(SP_TABLES.STREAM_SPEC_JSON, CatalogJson.stream(request.stream()))
                .set(SP_TABLES.TTL_JSON, CatalogJson.ttl(request.timeToLive()))
                .execute();
        RelationLayout.base(baseRelation, pkType, skType).createAll(data).forEach(q -> q.execute());
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
        DataRelation relation = kind.equals("GSI") ? DataRelation.globalIndex(id, ordinal) : DataRelation.localIndex(id, ordinal);
        ScalarType pkType = typeOf(description, key.partitionKey());
        Optional<ScalarType> skType = key.sortKey().map(s -> typeOf(description, s));
        catalog.insertInto(SP_INDEXES)
                .set(SP_INDEXES.TABLE_ID, id.value())
                .set(SP_INDEXES.INDEX_NAME, name)
                .set(SP_INDEXES.KIND, kind)
                .set(SP_INDEXES.ORDINAL, ordinal)
                .set(SP_INDEXES.RELATION_NAME, relation.name())
                .set(SP_INDEXES.PARTITION_KEY_NAME, key.partitionKey())
                .set(SP_INDEXES.PARTITION_KEY_TYPE, pkType.name())
                .set(SP_INDEXES.SORT_KEY_NAME, key.sortKey().orElse(null))
                .set(SP_INDEXES.SORT_KEY_TYPE, skType.map(Enum::name).orElse(null))
                .set(SP_INDEXES.PROJECTION_JSON, projectionJson)
                .set(SP_INDEXES.STATUS, status.name())
                .set(SP_INDEXES.BACKFILLING, backfilling)
                .execute();
        RelationLayout layout = RelationLayout.index(relation, pkType, skType, tablePkType, tableSkType);
        layout.createAll(data).forEach(q -> q.execute());
        return layout;
    }

    private static ScalarType typeOf(TableDescription d, String attribute) {
        return d.definition(attribute).map(a -> a.type())
                .orElseThrow(() -> StorageException.validation("key attribute '" + attribute + "' has no attribute definition"));
    }

    static void setStatus(DSLContext ctx, String tableId, TableStatus status, Instant dueAt, TableState.DropRetry retry) {
        ctx.update(SP_TABLES)
                .set(SP_TABLES.STATUS, status.name())
                .set(SP_TABLES.STATUS_DUE_AT, dueAt == null ? null : dueAt.toEpochMilli())
                .set(SP_TABLES.DROP_RETRY, retry == null ? null : retry.name())
                .where(SP_TABLES.TABLE_ID.eq(tableId))
                .execute();
    }

    static Duration controlPlaneDelay(DSLContext ctx) {
        return ctx.select(SP_SETTINGS.VALUE).from(SP_SETTINGS).where(SP_SETTINGS.NAME.eq(DELAY_SETTING))
                .fetchOptional(SP_SETTINGS.VALUE)
                .map(v -> Duration.ofMillis(Long.parseLong(v)))
                .orElse(Duration.ofMillis(250));
    }
}

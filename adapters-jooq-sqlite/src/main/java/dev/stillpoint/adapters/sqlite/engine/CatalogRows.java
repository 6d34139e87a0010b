package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.itemjson.CatalogJson;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_RESTORE_RECORDS;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_SETTINGS;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_VECTOR_INDEXES;

import dev.stillpoint.adapters.sqlite.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.sqlite.generated.tables.records.SpTablesRecord;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.adapters.sqlite.storage.TableId;
import dev.stillpoint.domain.key.KeySchema;
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

/**
 * The catalog rows of one table and how they map to the domain: the description and the
 * lifecycle state (status, due time and retry class). Every method runs on the caller's
 * connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {

    static final String DELAY_SETTING = "control_plane_delay_ms";

    private CatalogRows() {
    }

    /** A table's row and what it names, loaded together. */
    record Loaded(SpTablesRecord row, List<SpIndexesRecord> indexes, TableRecord record) {
        DataRelation base() {
            return DataRelation.fromCatalog(row.getRelationName());
        }

        /** Every data relation of the table, base first: the one list for probe and drop. */
        List<DataRelation> relations() {
            List<DataRelation> all = new ArrayList<>();
            all.add(base());
            indexes.forEach(i -> all.add(DataRelation.fromCatalog(i.getRelationName())));
            return all;
        }
    }

    static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName) {
        SpTablesRecord row = ctx.selectFrom(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId).and(SP_TABLES.TABLE_NAME.eq(tableName)))
                .fetchOne();
        if (row == null) {
            return Optional.empty();
        }
        List<SpIndexesRecord> indexes = ctx.selectFrom(SP_INDEXES)
                .where(SP_INDEXES.TABLE_ID.eq(row.getTableId()))
                .orderBy(SP_INDEXES.ORDINAL)
                .fetch();
        TableDescription description = describe(ctx, row, indexes);
        boolean restoring = description.restoreSummary().map(RestoreSummary::restoreInProgress).orElse(false);
        return Optional.of(new Loaded(row, indexes, new TableRecord(description, state(row, restoring))));
    }

    /** Whether the table's restore is in progress: its row is then RESTORING, its due time the restore's stamp [E5]. */
    static org.jooq.Condition restoreInProgress() {
        return DSL.exists(DSL.selectOne().from(SP_RESTORE_RECORDS)
                .where(SP_RESTORE_RECORDS.TABLE_ID.eq(SP_TABLES.TABLE_ID), SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS.isTrue()));
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

    private static TableDescription describe(DSLContext ctx, SpTablesRecord row, List<SpIndexesRecord> indexes) {
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
            List<VectorIndex> vectors = ctx.selectFrom(SP_VECTOR_INDEXES)
                    .where(SP_VECTOR_INDEXES.TABLE_ID.eq(row.getTableId()))
                    .orderBy(SP_VECTOR_INDEXES.ORDINAL)
                    .fetch(v -> new VectorIndex(v.getIndexName(), v.getAttributeName(), v.getDimensions(), v.getMetric(),
                            IndexStatus.valueOf(v.getStatus())));
            Optional<RestoreSummary> restore = ctx.selectFrom(SP_RESTORE_RECORDS)
                    .where(SP_RESTORE_RECORDS.TABLE_ID.eq(row.getTableId()))
                    .fetchOptional(r -> new RestoreSummary(Optional.ofNullable(r.getSourceBackupArn()),
                            Optional.ofNullable(r.getSourceTableArn()), Instant.ofEpochMilli(r.getRestoreDateTime()),
                            Boolean.TRUE.equals(r.getRestoreInProgress())));
            return new TableDescription(row.getAccountId(), row.getTableName(), row.getTableId(), row.getTableArn(),
                    TableStatus.valueOf(row.getStatus()), Instant.ofEpochMilli(row.getCreatedAt()),
                    new KeySchema(row.getPartitionKeyName(), Optional.ofNullable(row.getSortKeyName())),
                    CatalogJson.definitions(row.getAttributeDefinitionsJson()), gsis, lsis, vectors,
                    CatalogJson.stream(row.getStreamSpecJson()), CatalogJson.ttl(row.getTtlJson()), restore,
                    Optional.empty(), row.getItemCount(), row.getSizeBytes());
        });
    }

    /** Inserts a CREATING row and its index rows, and creates every data relation. */
    static TableDescription insertCreating(DSLContext ctx, CreateTableRequest request, Instant now, Instant activateAt) {
        TableId id = TableId.random();
        DataRelation base = DataRelation.base(id);
        String arn = "arn:aws:dynamodb:local:" + request.accountId() + ":table/" + request.tableName();
        TableDescription description = request.describe(id.value(), arn, now);
        ctx.insertInto(SP_TABLES)
                .set(SP_TABLES.ACCOUNT_ID, request.accountId())
                .set(SP_TABLES.TABLE_NAME, request.tableName())
                .set(SP_TABLES.TABLE_ID, id.value())
                .set(SP_TABLES.TABLE_ARN, arn)
                .set(SP_TABLES.RELATION_NAME, base.name())
                .set(SP_TABLES.STATUS, TableStatus.CREATING.name())
                .set(SP_TABLES.CREATED_AT, now.toEpochMilli())
                .set(SP_TABLES.STATUS_DUE_AT, activateAt.toEpochMilli())
                .set(SP_TABLES.PARTITION_KEY_NAME, request.keySchema().partitionKey())
                .set(SP_TABLES.PARTITION_KEY_TYPE, typeOf(description, request.keySchema().partitionKey()))
                .set(SP_TABLES.SORT_KEY_NAME, request.keySchema().sortKey().orElse(null))
                .set(SP_TABLES.SORT_KEY_TYPE, request.keySchema().sortKey().map(s -> typeOf(description, s)).orElse(null))
                .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(request.attributeDefinitions()))
                .set(SP_TABLES.STREAM_SPEC_JSON, CatalogJson.stream(request.stream()))
                .set(SP_TABLES.TTL_JSON, CatalogJson.ttl(request.timeToLive()))
                .execute();
        base.createAll(ctx).forEach(q -> q.execute());
        int ordinal = 0;
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            insertIndex(ctx, id, "GSI", ordinal++, g.name(), g.keySchema(), CatalogJson.projection(g.projection()),
                    IndexStatus.ACTIVE, false, description);
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            insertIndex(ctx, id, "LSI", ordinal++, l.name(), l.keySchema(), CatalogJson.projection(l.projection()),
                    IndexStatus.ACTIVE, false, description);
        }
        return description;
    }

    /** Inserts the restore record of a restoring table (or a restored one: {@code summary} says which). */
    static void insertRestoreRecord(DSLContext ctx, String tableId, RestoreSummary summary) {
        ctx.insertInto(SP_RESTORE_RECORDS)
                .set(SP_RESTORE_RECORDS.TABLE_ID, tableId)
                .set(SP_RESTORE_RECORDS.SOURCE_BACKUP_ARN, summary.sourceBackupArn().orElse(null))
                .set(SP_RESTORE_RECORDS.SOURCE_TABLE_ARN, summary.sourceTableArn().orElse(null))
                .set(SP_RESTORE_RECORDS.RESTORE_DATE_TIME, summary.restoreDateTime().toEpochMilli())
                .set(SP_RESTORE_RECORDS.RESTORE_IN_PROGRESS, summary.restoreInProgress())
                .execute();
    }

    static DataRelation insertIndex(DSLContext ctx, TableId id, String kind, int ordinal, String name, KeySchema key,
                                    String projectionJson, IndexStatus status, boolean backfilling,
                                    TableDescription description) {
        DataRelation relation = kind.equals("GSI") ? DataRelation.globalIndex(id, ordinal) : DataRelation.localIndex(id, ordinal);
        ctx.insertInto(SP_INDEXES)
                .set(SP_INDEXES.TABLE_ID, id.value())
                .set(SP_INDEXES.INDEX_NAME, name)
                .set(SP_INDEXES.KIND, kind)
                .set(SP_INDEXES.ORDINAL, ordinal)
                .set(SP_INDEXES.RELATION_NAME, relation.name())
                .set(SP_INDEXES.PARTITION_KEY_NAME, key.partitionKey())
                .set(SP_INDEXES.PARTITION_KEY_TYPE, typeOf(description, key.partitionKey()))
                .set(SP_INDEXES.SORT_KEY_NAME, key.sortKey().orElse(null))
                .set(SP_INDEXES.SORT_KEY_TYPE, key.sortKey().map(s -> typeOf(description, s)).orElse(null))
                .set(SP_INDEXES.PROJECTION_JSON, projectionJson)
                .set(SP_INDEXES.STATUS, status.name())
                .set(SP_INDEXES.BACKFILLING, backfilling)
                .execute();
        relation.createAll(ctx).forEach(q -> q.execute());
        return relation;
    }

    private static String typeOf(TableDescription d, String attribute) {
        return d.definition(attribute).map(a -> a.type().name()).orElse(null);
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

package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ACCOUNT_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.ATTRIBUTE_DEFINITIONS_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.BACKFILLING;
import static dev.stillpoint.sqlcatalog.CatalogColumns.CREATED_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.DROP_RETRY;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEXES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_KIND;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ORDINAL;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_PARTITION_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_PARTITION_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SORT_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SORT_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PARTITION_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PARTITION_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PROJECTION_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTINGS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTING_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTING_VALUE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SORT_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SORT_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS_DUE_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STREAM_SPEC_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TTL_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ROW;

import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.PendingTransition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * A table's catalog rows written, the same statements on both SQL catalogs: the CREATING row and its
 * index rows, the lifecycle columns, the control-plane delay. Each runs on the caller's transaction.
 */
public final class TableRows {

    /** The {@code sp_settings} row holding the control-plane delay in milliseconds. */
    public static final String DELAY_SETTING = "control_plane_delay_ms";

    private TableRows() {
    }

    /**
     * Inserts the CREATING row of {@code description} (the table {@code request} makes), due at
     * {@code activateAt}; its base relation is {@code relationName}, its key types {@code pkType} and
     * {@code skType} (null: no sort key).
     */
    public static void insertCreating(DSLContext ctx, CreateTableRequest request, TableDescription description,
                                      String relationName, Instant activateAt, String pkType, String skType) {
        ctx.insertInto(TABLES)
                .set(ACCOUNT_ID, request.accountId())
                .set(TABLE_NAME, request.tableName())
                .set(TABLE_ID, description.tableId())
                .set(TABLE_ARN, description.tableArn())
                .set(RELATION_NAME, relationName)
                .set(STATUS, TableStatus.CREATING.name())
                .set(CREATED_AT, description.creationTime().toEpochMilli())
                .set(STATUS_DUE_AT, activateAt.toEpochMilli())
                .set(PARTITION_KEY_NAME, request.keySchema().partitionKey())
                .set(PARTITION_KEY_TYPE, pkType)
                .set(SORT_KEY_NAME, request.keySchema().sortKey().orElse(null))
                .set(SORT_KEY_TYPE, skType)
                .set(ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(request.attributeDefinitions()))
                .set(STREAM_SPEC_JSON, CatalogJson.stream(request.stream(), request.changeLog()))
                .set(TTL_JSON, CatalogJson.ttl(request.timeToLive()))
                .execute();
    }

    /**
     * The account's table names, unordered (the core sorts them).
     *
     * @param ctx       the catalog's connection
     * @param accountId the account
     * @return the names
     */
    public static List<String> names(DSLContext ctx, String accountId) {
        return ctx.select(TABLE_NAME).from(TABLES).where(ACCOUNT_ID.eq(accountId)).fetch(TABLE_NAME);
    }

    /** One index row: {@code kind} GSI or LSI, its relation {@code relationName}, its key types as on the table row. */
    public static void insertIndex(DSLContext ctx, String tableId, String kind, int ordinal, String name, KeySchema key,
                                   String relationName, String pkType, String skType, String projectionJson,
                                   IndexStatus status, boolean backfilling) {
        ctx.insertInto(INDEXES)
                .set(INDEX_TABLE_ID, tableId)
                .set(INDEX_NAME, name)
                .set(INDEX_KIND, kind)
                .set(INDEX_ORDINAL, ordinal)
                .set(INDEX_RELATION_NAME, relationName)
                .set(INDEX_PARTITION_KEY_NAME, key.partitionKey())
                .set(INDEX_PARTITION_KEY_TYPE, pkType)
                .set(INDEX_SORT_KEY_NAME, key.sortKey().orElse(null))
                .set(INDEX_SORT_KEY_TYPE, skType)
                .set(PROJECTION_JSON, projectionJson)
                .set(INDEX_STATUS, status.name())
                .set(BACKFILLING, backfilling)
                .execute();
    }

    /**
     * Stores {@code table}'s change log setting [I1] in the text that holds it beside the stream setting, as
     * CreateTable writes it; the catalog's triggers advance the table's catalog version with it.
     */
    public static void setChangeLog(DSLContext ctx, TableDescription table, ChangeLog setting) {
        ctx.update(TABLES)
                .set(STREAM_SPEC_JSON, CatalogJson.stream(table.streamSpecification(), setting))
                .where(TABLE_ID.eq(table.tableId()))
                .execute();
    }

    /** Sets the row's status, due time and retry class (null clears them). */
    public static void setStatus(DSLContext ctx, String tableId, TableStatus status, Instant dueAt,
                                 TableState.DropRetry retry) {
        ctx.update(TABLES)
                .set(STATUS, status.name())
                .set(STATUS_DUE_AT, dueAt == null ? null : dueAt.toEpochMilli())
                .set(DROP_RETRY, retry == null ? null : retry.name())
                .where(TABLE_ID.eq(tableId))
                .execute();
    }

    /** CREATING becomes ACTIVE, unless a restore is in progress on the row; true if it did. */
    public static boolean markActive(DSLContext ctx, String accountId, String tableName) {
        return ctx.update(TABLES)
                .set(STATUS, TableStatus.ACTIVE.name())
                .setNull(STATUS_DUE_AT)
                .where(ACCOUNT_ID.eq(accountId), TABLE_NAME.eq(tableName),
                        STATUS.eq(TableStatus.CREATING.name()), DSL.not(RestoreRecords.inProgress()))
                .execute() == 1;
    }

    /** Stores {@code after}'s attribute definitions (a GSI being added may define new ones). */
    public static void setDefinitions(DSLContext ctx, TableDescription after) {
        ctx.update(TABLES)
                .set(ATTRIBUTE_DEFINITIONS_JSON, CatalogJson.definitions(after.attributeDefinitions()))
                .where(TABLE_ID.eq(after.tableId()))
                .execute();
    }

    /** The index is ACTIVE, its backfill done. */
    public static void activateIndex(DSLContext ctx, String tableId, String indexName) {
        ctx.update(INDEXES)
                .set(INDEX_STATUS, IndexStatus.ACTIVE.name())
                .set(BACKFILLING, false)
                .where(INDEX_TABLE_ID.eq(tableId), INDEX_NAME.eq(indexName))
                .execute();
    }

    /**
     * The tables with a transition pending (CREATING or DELETING), soonest due first. One statement, so a
     * row and whether its restore is in progress are read at one instant.
     */
    public static List<PendingTransition> pendingTransitions(DSLContext ctx) {
        org.jooq.Field<Boolean> restoring = DSL.field(RestoreRecords.inProgress());
        return ctx.select(TABLE_ROW).select(restoring).from(TABLES)
                .where(STATUS.in(TableStatus.CREATING.name(), TableStatus.DELETING.name()))
                .orderBy(STATUS_DUE_AT)
                .fetch(r -> new PendingTransition(r.get(ACCOUNT_ID), r.get(TABLE_NAME),
                        TableDescriptions.state(r, Boolean.TRUE.equals(r.get(restoring)))));
    }

    /** The configured control-plane delay; 250 ms when none is set. */
    public static Duration controlPlaneDelay(DSLContext ctx) {
        return ctx.select(SETTING_VALUE).from(SETTINGS).where(SETTING_NAME.eq(DELAY_SETTING))
                .fetchOptional(SETTING_VALUE)
                .map(v -> Duration.ofMillis(Long.parseLong(v)))
                .orElse(Duration.ofMillis(250));
    }
}

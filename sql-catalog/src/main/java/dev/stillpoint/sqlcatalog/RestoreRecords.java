package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ACCOUNT_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_DATE_TIME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_IN_PROGRESS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_BACKUP_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS_DUE_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_NAME;

import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * A restore's catalog rows [E4, E5], the same statements on both SQL catalogs: the restore record
 * beside the table's row, which stays CREATING (RESTORING while the record says in progress) with its
 * due time the restore's stamp. Every method runs on the caller's transaction.
 */
public final class RestoreRecords {

    private RestoreRecords() {
    }

    /** Inserts the restore record of a restoring table. */
    public static void insert(DSLContext ctx, String tableId, RestoreSummary summary) {
        ctx.insertInto(RESTORES).set(RESTORE_TABLE_ID, tableId).set(values(summary)).execute();
    }

    /** Writes (or replaces) the table's restore record. */
    public static void write(DSLContext ctx, String tableId, RestoreSummary summary) {
        ctx.insertInto(RESTORES).set(RESTORE_TABLE_ID, tableId).set(values(summary))
                .onConflict(RESTORE_TABLE_ID).doUpdate().set(values(summary))
                .execute();
    }

    private static Map<Field<?>, Object> values(RestoreSummary summary) {
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        values.put(SOURCE_BACKUP_ARN, summary.sourceBackupArn().orElse(null));
        values.put(SOURCE_TABLE_ARN, summary.sourceTableArn().orElse(null));
        values.put(RESTORE_DATE_TIME, summary.restoreDateTime().toEpochMilli());
        values.put(RESTORE_IN_PROGRESS, summary.restoreInProgress());
        return values;
    }

    /** Moves the restore's stamp to {@code aliveUntil}; false when that restore is no longer in progress. */
    public static boolean renew(DSLContext ctx, String accountId, String tableName, String tableId, Instant aliveUntil) {
        return ctx.update(TABLES)
                .set(STATUS_DUE_AT, aliveUntil.toEpochMilli())
                .where(restoring(accountId, tableName, tableId))
                .execute() == 1;
    }

    /**
     * Activates the restored table with its counts and ends its restore; false when that restore is no
     * longer in progress. The counts are taken here, in the caller's unit of work, while the table is still
     * restoring (nothing else writes to it then), so DescribeTable's ItemCount and TableSizeBytes are right
     * from the first description of the ACTIVE table instead of 0 until the next recount [issue 29], and
     * so are each index's ItemCount and IndexSizeBytes.
     *
     * @param catalog     the catalog's connection, in the completing unit of work
     * @param data        the connection that reaches the table's relations (the catalog's on one database)
     * @param maxIdLength the adapter's longest table id, for the relation name's check
     * @return whether the restore was still in progress and is now complete
     */
    public static boolean complete(DSLContext catalog, DSLContext data, String accountId, String tableName,
                                   String tableId, int maxIdLength) {
        Optional<String> relation = catalog.select(RELATION_NAME).from(TABLES)
                .where(restoring(accountId, tableName, tableId)).fetchOptional(RELATION_NAME);
        if (relation.isEmpty()) {
            return false;
        }
        TableStatistics.Counts counts = StatisticsRows.count(data, relation.get(),
                StatisticsRows.indexRelations(catalog, tableId), maxIdLength);
        if (catalog.update(TABLES)
                .set(STATUS, TableStatus.ACTIVE.name())
                .setNull(STATUS_DUE_AT)
                .set(ITEM_COUNT, counts.items())
                .set(SIZE_BYTES, counts.bytes())
                .where(restoring(accountId, tableName, tableId))
                .execute() != 1) {
            return false;
        }
        StatisticsRows.recordIndexes(catalog, tableId, counts);
        catalog.update(RESTORES).set(RESTORE_IN_PROGRESS, false).where(RESTORE_TABLE_ID.eq(tableId)).execute();
        return true;
    }

    /**
     * Whether the {@code sp_tables} row in scope has a restore in progress: its row is then RESTORING,
     * its due time the restore's stamp [E5].
     */
    public static Condition inProgress() {
        return DSL.exists(DSL.selectOne().from(RESTORES)
                .where(RESTORE_TABLE_ID.eq(TABLE_ID), RESTORE_IN_PROGRESS.isTrue()));
    }

    private static Condition restoring(String accountId, String tableName, String tableId) {
        return ACCOUNT_ID.eq(accountId).and(TABLE_NAME.eq(tableName)).and(TABLE_ID.eq(tableId))
                .and(STATUS.eq(TableStatus.CREATING.name())).and(inProgress());
    }
}

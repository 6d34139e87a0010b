package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ACCOUNT_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.CATALOG_VERSION;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEXES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_KIND;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ORDINAL;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_PARTITION_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ROW;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SORT_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PARTITION_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_DATE_TIME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_IN_PROGRESS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SORT_KEY_TYPE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_BACKUP_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ROW;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTORS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_ORDINAL;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_ROW;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_TABLE_ID;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.VectorIndex;
import dev.stillpoint.ports.out.TableRecord;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SelectConditionStep;

/**
 * A table's catalog load, the same statements on both SQL catalogs: its {@code sp_tables} row (locked as
 * asked), then by its table id its index rows, and on a full load its vector indexes and restore record.
 * Each runs on the caller's connection and transaction, so a snapshot reads the catalog in its own window.
 */
public final class TableLoads {

    private TableLoads() {
    }

    /** The row, its indexes, vector indexes and restore record: everything a description or a drop needs. */
    public static Optional<CatalogRow> load(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return load(ctx, accountId, tableName, lock, true);
    }

    /**
     * The row and its GSI/LSI rows only: what an item read or write needs (two round trips, not four). Its
     * description has no vector indexes and no restore summary, and a restoring row reads CREATING: not the
     * state the control plane decides with, which comes from a full load.
     */
    public static Optional<CatalogRow> loadForItems(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return load(ctx, accountId, tableName, lock, false);
    }

    /**
     * The row and index rows of {@code table} while a restore still loads it [E4]: the same table instance
     * (its id), still CREATING. What a bulk load opens on; a restore whose table was removed meanwhile, or
     * whose name another table now has, is refused TABLE_NOT_FOUND, {@code doing} first.
     */
    public static CatalogRow restoring(DSLContext ctx, TableDescription table, String doing) {
        return loadForItems(ctx, table.accountId(), table.tableName(), RowLock.NONE)
                .filter(r -> r.tableId().equals(table.tableId()) && r.description().status() == TableStatus.CREATING)
                .orElseThrow(() -> new StorageException(ErrorReason.TABLE_NOT_FOUND, doing
                        + ": it is no longer restoring (removed, or another table has its name)"));
    }

    private static Optional<CatalogRow> load(DSLContext ctx, String accountId, String tableName, RowLock lock,
                                             boolean full) {
        SelectConditionStep<Record> select = ctx.select(TABLE_ROW).from(TABLES)
                .where(ACCOUNT_ID.eq(accountId), TABLE_NAME.eq(tableName));
        Record row = switch (lock) {
            case NONE -> select.fetchOne();
            case KEY_SHARE -> select.forKeyShare().fetchOne();
            case SHARE -> select.forShare().fetchOne();
            case UPDATE -> select.forUpdate().fetchOne();
        };
        if (row == null) {
            return Optional.empty();
        }
        String tableId = row.get(TABLE_ID);
        List<Record> indexes = ctx.select(INDEX_ROW).from(INDEXES).where(INDEX_TABLE_ID.eq(tableId))
                .orderBy(INDEX_ORDINAL).fetch();
        List<Record> vectorRows = full ? ctx.select(VECTOR_ROW).from(VECTORS).where(VECTOR_TABLE_ID.eq(tableId))
                .orderBy(VECTOR_ORDINAL).fetch() : List.of();
        Optional<RestoreSummary> restore = full ? restore(ctx, tableId) : Optional.empty();
        List<VectorIndex> vectors = vectorRows.stream().map(TableDescriptions::vectorIndex).toList();
        boolean restoring = restore.map(RestoreSummary::restoreInProgress).orElse(false);
        TableRecord record = new TableRecord(TableDescriptions.of(row, indexes, vectors, restore),
                TableDescriptions.state(row, restoring));
        return Optional.of(CatalogDamage.reading(tableName, () -> new CatalogRow(tableId, row.get(CATALOG_VERSION),
                row.get(RELATION_NAME), keyType("partition key type", row.get(PARTITION_KEY_TYPE)),
                Optional.ofNullable(row.get(SORT_KEY_TYPE)).map(t -> keyType("sort key type", t)),
                indexes.stream().map(TableLoads::indexRow).toList(),
                vectorRows.stream().map(v -> v.get(VECTOR_RELATION_NAME)).toList(), record, full)));
    }

    private static IndexRow indexRow(Record i) {
        return new IndexRow(i.get(INDEX_ORDINAL), i.get(INDEX_NAME), i.get(INDEX_KIND).equals("GSI"),
                i.get(INDEX_RELATION_NAME), keyType("partition key type of index '" + i.get(INDEX_NAME) + "'",
                        i.get(INDEX_PARTITION_KEY_TYPE)),
                Optional.ofNullable(i.get(INDEX_SORT_KEY_TYPE))
                        .map(t -> keyType("sort key type of index '" + i.get(INDEX_NAME) + "'", t)));
    }

    /** A stored key type; anything but S, N or B is catalog damage naming the field and the stored text [R6]. */
    private static ScalarType keyType(String field, String stored) {
        try {
            return ScalarType.valueOf(stored);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw CatalogDamage.field(field, stored, e);
        }
    }

    /** The table's restore record, empty when it was never restored. */
    public static Optional<RestoreSummary> restore(DSLContext ctx, String tableId) {
        return ctx.select(SOURCE_BACKUP_ARN, SOURCE_TABLE_ARN, RESTORE_DATE_TIME, RESTORE_IN_PROGRESS)
                .from(RESTORES)
                .where(RESTORE_TABLE_ID.eq(tableId))
                .fetchOptional(TableDescriptions::restoreSummary);
    }
}

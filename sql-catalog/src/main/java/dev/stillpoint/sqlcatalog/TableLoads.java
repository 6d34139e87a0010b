package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ORDINAL;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_DATE_TIME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_IN_PROGRESS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_BACKUP_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_ORDINAL;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_TABLE_ID;

import dev.stillpoint.domain.table.RestoreSummary;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Table;

/**
 * The reads a catalog load makes after a table's {@code sp_tables} row, by its table id, alike in both
 * jOOQ adapters. The adapter passes its generated table so the rows come back as its own typed records
 * (it reads their relation names and key types), while the conditions use the shared column names.
 */
public final class TableLoads {

    private TableLoads() {
    }

    /** The table's {@code sp_indexes} rows (GSIs and LSIs) by ordinal; {@code indexes} is the adapter's generated table. */
    public static <R extends Record> List<R> indexes(DSLContext ctx, Table<R> indexes, String tableId) {
        return ctx.selectFrom(indexes).where(INDEX_TABLE_ID.eq(tableId)).orderBy(INDEX_ORDINAL).fetch();
    }

    /** The table's {@code sp_vector_indexes} rows by ordinal; {@code vectors} is the adapter's generated table. */
    public static <R extends Record> List<R> vectorIndexes(DSLContext ctx, Table<R> vectors, String tableId) {
        return ctx.selectFrom(vectors).where(VECTOR_TABLE_ID.eq(tableId)).orderBy(VECTOR_ORDINAL).fetch();
    }

    /** The table's restore record, empty when it was never restored. */
    public static Optional<RestoreSummary> restore(DSLContext ctx, String tableId) {
        return ctx.select(SOURCE_BACKUP_ARN, SOURCE_TABLE_ARN, RESTORE_DATE_TIME, RESTORE_IN_PROGRESS)
                .from(RESTORES)
                .where(RESTORE_TABLE_ID.eq(tableId))
                .fetchOptional(TableDescriptions::restoreSummary);
    }
}

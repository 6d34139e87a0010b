package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ACCOUNT_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.ATTRIBUTE_DEFINITIONS_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.BACKFILLING;
import static dev.stillpoint.sqlcatalog.CatalogColumns.CREATED_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.DROP_RETRY;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_KIND;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_PARTITION_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SORT_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PARTITION_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.PROJECTION_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_DATE_TIME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RESTORE_IN_PROGRESS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SORT_KEY_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_BACKUP_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SOURCE_TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS_DUE_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STREAM_SPEC_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ARN;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TTL_JSON;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_ATTRIBUTE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_DIMENSIONS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_METRIC;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.VECTOR_STATUS;

import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.VectorIndex;
import dev.stillpoint.itemjson.CatalogJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Record;

/**
 * How catalog rows become the domain's values, the same on both SQL catalogs: a table row (with its
 * index rows, vector indexes and restore record) is a {@link TableDescription}, its lifecycle columns
 * a {@link TableState}. Reads each adapter's generated records by the shared column names, so a
 * damaged row is {@link CatalogDamage} naming the table either way.
 */
public final class TableDescriptions {

    private TableDescriptions() {
    }

    /** The description of a {@code sp_tables} row with its {@code sp_indexes} rows (in ordinal order). */
    public static TableDescription of(Record row, List<? extends Record> indexes, List<VectorIndex> vectors,
                                      Optional<RestoreSummary> restore) {
        return CatalogDamage.reading(row.get(TABLE_NAME), () -> {
            List<GlobalSecondaryIndex> gsis = new ArrayList<>();
            List<LocalSecondaryIndex> lsis = new ArrayList<>();
            for (Record i : indexes) {
                KeySchema key = new KeySchema(i.get(INDEX_PARTITION_KEY_NAME), Optional.ofNullable(i.get(INDEX_SORT_KEY_NAME)));
                if (i.get(INDEX_KIND).equals("GSI")) {
                    gsis.add(new GlobalSecondaryIndex(i.get(INDEX_NAME), key, CatalogJson.projection(i.get(PROJECTION_JSON)),
                            IndexStatus.valueOf(i.get(INDEX_STATUS)), Boolean.TRUE.equals(i.get(BACKFILLING)),
                            i.get(INDEX_ITEM_COUNT), i.get(INDEX_SIZE_BYTES)));
                } else {
                    lsis.add(new LocalSecondaryIndex(i.get(INDEX_NAME), key, CatalogJson.projection(i.get(PROJECTION_JSON)),
                            i.get(INDEX_ITEM_COUNT), i.get(INDEX_SIZE_BYTES)));
                }
            }
            return new TableDescription(row.get(ACCOUNT_ID), row.get(TABLE_NAME), row.get(TABLE_ID), row.get(TABLE_ARN),
                    TableStatus.valueOf(row.get(STATUS)), Instant.ofEpochMilli(row.get(CREATED_AT)),
                    new KeySchema(row.get(PARTITION_KEY_NAME), Optional.ofNullable(row.get(SORT_KEY_NAME))),
                    CatalogJson.definitions(row.get(ATTRIBUTE_DEFINITIONS_JSON)), gsis, lsis, vectors,
                    CatalogJson.stream(row.get(STREAM_SPEC_JSON)), CatalogJson.ttl(row.get(TTL_JSON)), restore,
                    Optional.empty(), row.get(ITEM_COUNT), row.get(SIZE_BYTES),
                    CatalogJson.changeLog(row.get(STREAM_SPEC_JSON)));
        });
    }

    /** A {@code sp_vector_indexes} row. */
    public static VectorIndex vectorIndex(Record v) {
        return new VectorIndex(v.get(VECTOR_NAME), v.get(VECTOR_ATTRIBUTE), v.get(VECTOR_DIMENSIONS), v.get(VECTOR_METRIC),
                IndexStatus.valueOf(v.get(VECTOR_STATUS)));
    }

    /** A {@code sp_restore_records} row. */
    public static RestoreSummary restoreSummary(Record r) {
        return new RestoreSummary(Optional.ofNullable(r.get(SOURCE_BACKUP_ARN)), Optional.ofNullable(r.get(SOURCE_TABLE_ARN)),
                Instant.ofEpochMilli(r.get(RESTORE_DATE_TIME)), Boolean.TRUE.equals(r.get(RESTORE_IN_PROGRESS)));
    }

    /**
     * The lifecycle state of a {@code sp_tables} row; {@code restoring} when its restore is in progress
     * (a CREATING row is then RESTORING, its due time the restore's stamp [E5]).
     */
    public static TableState state(Record row, boolean restoring) {
        Long dueAt = row.get(STATUS_DUE_AT);
        Instant due = dueAt == null ? Instant.EPOCH : Instant.ofEpochMilli(dueAt);
        String retry = row.get(DROP_RETRY);
        return TableState.recorded(TableStatus.valueOf(row.get(STATUS)), due, restoring,
                retry == null ? TableState.DropRetry.SCHEDULED : TableState.DropRetry.valueOf(retry));
    }
}

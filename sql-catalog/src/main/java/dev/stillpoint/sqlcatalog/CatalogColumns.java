package dev.stillpoint.sqlcatalog;

import java.util.List;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The catalog columns both jOOQ adapters' schemas declare alike (same names, same types), named here
 * so the shared statements need neither adapter's generated classes.
 */
final class CatalogColumns {

    static final Table<?> TABLES = DSL.table(DSL.name("sp_tables"));
    static final Field<String> ACCOUNT_ID = DSL.field(DSL.name("sp_tables", "account_id"), String.class);
    static final Field<String> TABLE_NAME = DSL.field(DSL.name("sp_tables", "table_name"), String.class);
    static final Field<String> TABLE_ID = DSL.field(DSL.name("sp_tables", "table_id"), String.class);
    static final Field<String> STATUS = DSL.field(DSL.name("sp_tables", "status"), String.class);
    static final Field<Long> STATUS_DUE_AT = DSL.field(DSL.name("sp_tables", "status_due_at"), Long.class);
    static final Field<String> DROP_RETRY = DSL.field(DSL.name("sp_tables", "drop_retry"), String.class);
    static final Field<String> RELATION_NAME = DSL.field(DSL.name("sp_tables", "relation_name"), String.class);
    static final Field<String> PARTITION_KEY_TYPE = DSL.field(DSL.name("sp_tables", "partition_key_type"), String.class);
    static final Field<String> SORT_KEY_TYPE = DSL.field(DSL.name("sp_tables", "sort_key_type"), String.class);
    static final Field<String> TABLE_ARN = DSL.field(DSL.name("sp_tables", "table_arn"), String.class);
    static final Field<Long> CREATED_AT = DSL.field(DSL.name("sp_tables", "created_at"), Long.class);
    static final Field<String> PARTITION_KEY_NAME = DSL.field(DSL.name("sp_tables", "partition_key_name"), String.class);
    static final Field<String> SORT_KEY_NAME = DSL.field(DSL.name("sp_tables", "sort_key_name"), String.class);
    static final Field<String> ATTRIBUTE_DEFINITIONS_JSON =
            DSL.field(DSL.name("sp_tables", "attribute_definitions_json"), String.class);
    static final Field<String> STREAM_SPEC_JSON = DSL.field(DSL.name("sp_tables", "stream_spec_json"), String.class);
    static final Field<String> TTL_JSON = DSL.field(DSL.name("sp_tables", "ttl_json"), String.class);
    static final Field<Long> ITEM_COUNT = DSL.field(DSL.name("sp_tables", "item_count"), Long.class);
    static final Field<Long> SIZE_BYTES = DSL.field(DSL.name("sp_tables", "size_bytes"), Long.class);
    static final Field<Long> CATALOG_VERSION = DSL.field(DSL.name("sp_tables", "catalog_version"), Long.class);

    static final Table<?> INDEXES = DSL.table(DSL.name("sp_indexes"));
    static final Field<String> INDEX_TABLE_ID = DSL.field(DSL.name("sp_indexes", "table_id"), String.class);
    static final Field<Integer> INDEX_ORDINAL = DSL.field(DSL.name("sp_indexes", "ordinal"), Integer.class);
    static final Field<String> INDEX_RELATION_NAME = DSL.field(DSL.name("sp_indexes", "relation_name"), String.class);
    static final Field<String> INDEX_PARTITION_KEY_TYPE =
            DSL.field(DSL.name("sp_indexes", "partition_key_type"), String.class);
    static final Field<String> INDEX_SORT_KEY_TYPE = DSL.field(DSL.name("sp_indexes", "sort_key_type"), String.class);
    static final Field<String> INDEX_NAME = DSL.field(DSL.name("sp_indexes", "index_name"), String.class);
    static final Field<String> INDEX_KIND = DSL.field(DSL.name("sp_indexes", "kind"), String.class);
    static final Field<String> INDEX_PARTITION_KEY_NAME =
            DSL.field(DSL.name("sp_indexes", "partition_key_name"), String.class);
    static final Field<String> INDEX_SORT_KEY_NAME = DSL.field(DSL.name("sp_indexes", "sort_key_name"), String.class);
    static final Field<String> PROJECTION_JSON = DSL.field(DSL.name("sp_indexes", "projection_json"), String.class);
    static final Field<String> INDEX_STATUS = DSL.field(DSL.name("sp_indexes", "status"), String.class);
    static final Field<Boolean> BACKFILLING = DSL.field(DSL.name("sp_indexes", "backfilling"), Boolean.class);
    static final Field<Long> INDEX_ITEM_COUNT = DSL.field(DSL.name("sp_indexes", "item_count"), Long.class);
    static final Field<Long> INDEX_SIZE_BYTES = DSL.field(DSL.name("sp_indexes", "size_bytes"), Long.class);

    static final Field<String> VECTOR_TABLE_ID = DSL.field(DSL.name("sp_vector_indexes", "table_id"), String.class);
    static final Field<Integer> VECTOR_ORDINAL = DSL.field(DSL.name("sp_vector_indexes", "ordinal"), Integer.class);
    static final Field<String> VECTOR_NAME = DSL.field(DSL.name("sp_vector_indexes", "index_name"), String.class);
    static final Field<String> VECTOR_ATTRIBUTE = DSL.field(DSL.name("sp_vector_indexes", "attribute_name"), String.class);
    static final Field<Integer> VECTOR_DIMENSIONS = DSL.field(DSL.name("sp_vector_indexes", "dimensions"), Integer.class);
    static final Field<String> VECTOR_METRIC = DSL.field(DSL.name("sp_vector_indexes", "metric"), String.class);
    static final Field<String> VECTOR_STATUS = DSL.field(DSL.name("sp_vector_indexes", "status"), String.class);
    static final Field<String> VECTOR_RELATION_NAME =
            DSL.field(DSL.name("sp_vector_indexes", "relation_name"), String.class);

    /** Every {@code sp_tables} column a load reads, so a selected row carries exactly these fields. */
    static final List<Field<?>> TABLE_ROW = List.of(ACCOUNT_ID, TABLE_NAME, TABLE_ID, STATUS, STATUS_DUE_AT,
            DROP_RETRY, RELATION_NAME, PARTITION_KEY_TYPE, SORT_KEY_TYPE, TABLE_ARN, CREATED_AT, PARTITION_KEY_NAME,
            SORT_KEY_NAME, ATTRIBUTE_DEFINITIONS_JSON, STREAM_SPEC_JSON, TTL_JSON, ITEM_COUNT, SIZE_BYTES,
            CATALOG_VERSION);

    /** Every {@code sp_indexes} column a load reads. */
    static final List<Field<?>> INDEX_ROW = List.of(INDEX_TABLE_ID, INDEX_ORDINAL, INDEX_RELATION_NAME,
            INDEX_PARTITION_KEY_TYPE, INDEX_SORT_KEY_TYPE, INDEX_NAME, INDEX_KIND, INDEX_PARTITION_KEY_NAME,
            INDEX_SORT_KEY_NAME, PROJECTION_JSON, INDEX_STATUS, BACKFILLING, INDEX_ITEM_COUNT, INDEX_SIZE_BYTES);

    static final Table<?> VECTORS = DSL.table(DSL.name("sp_vector_indexes"));

    /** Every {@code sp_vector_indexes} column a load reads. */
    static final List<Field<?>> VECTOR_ROW = List.of(VECTOR_NAME, VECTOR_ATTRIBUTE, VECTOR_DIMENSIONS, VECTOR_METRIC,
            VECTOR_STATUS, VECTOR_RELATION_NAME);

    static final Table<?> RESTORES = DSL.table(DSL.name("sp_restore_records"));
    static final Field<String> RESTORE_TABLE_ID = DSL.field(DSL.name("sp_restore_records", "table_id"), String.class);
    static final Field<String> SOURCE_BACKUP_ARN =
            DSL.field(DSL.name("sp_restore_records", "source_backup_arn"), String.class);
    static final Field<String> SOURCE_TABLE_ARN =
            DSL.field(DSL.name("sp_restore_records", "source_table_arn"), String.class);
    static final Field<Long> RESTORE_DATE_TIME =
            DSL.field(DSL.name("sp_restore_records", "restore_date_time"), Long.class);
    static final Field<Boolean> RESTORE_IN_PROGRESS =
            DSL.field(DSL.name("sp_restore_records", "restore_in_progress"), Boolean.class);

    static final Table<?> SETTINGS = DSL.table(DSL.name("sp_settings"));
    static final Field<String> SETTING_NAME = DSL.field(DSL.name("sp_settings", "name"), String.class);
    static final Field<String> SETTING_VALUE = DSL.field(DSL.name("sp_settings", "value"), String.class);

    private CatalogColumns() {
    }
}

package dev.stillpoint.sqlcatalog;

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

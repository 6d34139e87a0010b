package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ACCOUNT_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.DROP_RETRY;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTINGS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTING_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SETTING_VALUE;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS_DUE_AT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_NAME;

import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Duration;
import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** A table row's lifecycle columns, the same statements on both SQL catalogs; each runs on the caller's transaction. */
public final class TableRows {

    /** The {@code sp_settings} row holding the control-plane delay in milliseconds. */
    public static final String DELAY_SETTING = "control_plane_delay_ms";

    private TableRows() {
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

    /** The configured control-plane delay; 250 ms when none is set. */
    public static Duration controlPlaneDelay(DSLContext ctx) {
        return ctx.select(SETTING_VALUE).from(SETTINGS).where(SETTING_NAME.eq(DELAY_SETTING))
                .fetchOptional(SETTING_VALUE)
                .map(v -> Duration.ofMillis(Long.parseLong(v)))
                .orElse(Duration.ofMillis(250));
    }
}

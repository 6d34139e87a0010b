package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_DATA_RESTORES;

import org.jooq.DSLContext;

/**
 * The data database's record of the restores that completed in it ({@code sp_data_restores}, from
 * {@code data/ownership.sql}). The catalog's restore record says the same, but a copy of the catalog made
 * during the restore still says "in progress": a drop of a restore in progress checks here first, so such a
 * copy never drops the table its original finished [E5, O1].
 */
final class DataRestores {

    private DataRestores() {
    }

    /** Records, in the data transaction that completes it, that the restore of {@code tableId} completed. */
    static void completed(DSLContext data, String tableId, long nowMillis) {
        data.insertInto(SP_DATA_RESTORES, SP_DATA_RESTORES.TABLE_ID, SP_DATA_RESTORES.COMPLETED_AT)
                .values(tableId, nowMillis).onConflictDoNothing().execute();
    }

    /** Whether {@code data} has the record (a data database set up by an earlier build may not). */
    static boolean recordExists(DSLContext data) {
        return DataRelations.exists(data, SP_DATA_RESTORES.getName());
    }

    /** Whether the restore of {@code tableId} completed in {@code data}; false where no opening made the record yet. */
    static boolean isCompleted(DSLContext data, String tableId) {
        return recordExists(data) && data.fetchExists(SP_DATA_RESTORES, SP_DATA_RESTORES.TABLE_ID.eq(tableId));
    }

    /** Forgets {@code tableId}, in the transaction that drops its relations. */
    static void forget(DSLContext data, String tableId) {
        if (recordExists(data)) {
            data.deleteFrom(SP_DATA_RESTORES).where(SP_DATA_RESTORES.TABLE_ID.eq(tableId)).execute();
        }
    }
}

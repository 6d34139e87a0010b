package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_PENDING_CREATIONS;

import java.util.Collection;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The catalog's own record of the tables it began to create and has not finished ({@code sp_pending_creations}):
 * the only tables whose registered relations the orphan sweep may drop [L2, O1]. A relation registered to this
 * catalog's id but begun by no creation recorded here is another copy's of the catalog (a clone given the same
 * data database), and is left alone.
 */
final class PendingCreations {

    private PendingCreations() {
    }

    /** Records, committed on its own before any of the table's relations exists, that {@code tableId} is begun. */
    static void begin(DSLContext catalog, String tableId, long nowMillis) {
        catalog.insertInto(SP_PENDING_CREATIONS, SP_PENDING_CREATIONS.TABLE_ID, SP_PENDING_CREATIONS.STARTED_AT)
                .values(tableId, nowMillis).execute();
    }

    /** Forgets {@code tableIds}: in the transaction that commits a row, once a sweep dropped the relations, or stale. */
    static void forget(DSLContext catalog, Collection<String> tableIds) {
        catalog.deleteFrom(SP_PENDING_CREATIONS).where(SP_PENDING_CREATIONS.TABLE_ID.in(tableIds)).execute();
    }

    /** Every creation begun and not finished: table id to when it began (epoch milliseconds). */
    static Map<String, Long> all(DSLContext catalog) {
        return catalog.select(SP_PENDING_CREATIONS.TABLE_ID, SP_PENDING_CREATIONS.STARTED_AT).from(SP_PENDING_CREATIONS)
                .fetchMap(SP_PENDING_CREATIONS.TABLE_ID, SP_PENDING_CREATIONS.STARTED_AT);
    }
}

package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.table.RestoreSummary;
import java.time.Instant;
import java.util.Optional;

/**
 * One row of {@code <prefix>_catalog.restores} (catalog schema step 4): the restore of a restored table,
 * by table id [E4, E5]. While {@code inProgress}, {@code aliveUntil} is the restore's stamp; the row goes
 * with its table.
 */
record RestoreRecord(String tableId, String accountId, String tableName, Optional<String> sourceTableArn,
                     Instant restoreDateTime, boolean inProgress, Instant aliveUntil) {

    /** The summary a description shows; in progress only while {@code shownInProgress} (the table is CREATING). */
    RestoreSummary summary(boolean shownInProgress) {
        return new RestoreSummary(Optional.empty(), sourceTableArn, restoreDateTime, inProgress && shownInProgress);
    }
}

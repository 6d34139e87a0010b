package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreOrigin;

/**
 * Restoring a backup into a NEW table [E4, E5]: the table is created from the backup's definition,
 * CREATING with a {@code RestoreSummary} in progress, filled through the returned {@link RestoreLoad},
 * and ACTIVE only once the load completes. A load closed without completing, or whose process died,
 * leaves no table behind.
 */
public interface TableRestores {

    /**
     * Creates the table CREATING with a RestoreSummary in progress; ResourceInUse (named) when the name
     * is taken in any state, with nothing changed.
     *
     * @param definition the new table's definition (key schema, attribute definitions, GSIs, LSIs, stream, time to live)
     * @param origin the source table's ARN, if known, and the restore's time
     * @return the running restore; close it (try-with-resources) whether or not it completes
     */
    RestoreLoad begin(CreateTableRequest definition, RestoreOrigin origin);
}

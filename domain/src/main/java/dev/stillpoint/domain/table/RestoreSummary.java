package dev.stillpoint.domain.table;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a restored table came from. Unlike the running counts it is part of the table's identity,
 * so a snapshot keeps it [S2].
 */
public record RestoreSummary(
        Optional<String> sourceBackupArn,
        Optional<String> sourceTableArn,
        Instant restoreDateTime,
        boolean restoreInProgress) {

    /**
     * Normalises missing ARNs to empty and refuses a missing restore time.
     *
     * @param sourceBackupArn the backup the table was restored from, if any
     * @param sourceTableArn the table the backup was taken of, if known
     * @param restoreDateTime the point in time restored to ("Point in time or source backup time", DynamoDB API
     *     reference, RestoreSummary): for a restore from an export, the export's time
     * @param restoreInProgress whether the restore is still running
     */
    public RestoreSummary {
        sourceBackupArn = TableChecks.orEmpty(sourceBackupArn);
        sourceTableArn = TableChecks.orEmpty(sourceTableArn);
        TableChecks.required(restoreDateTime, "restore date time");
    }
}

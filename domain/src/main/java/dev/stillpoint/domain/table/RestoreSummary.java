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

    public RestoreSummary {
        sourceBackupArn = TableChecks.orEmpty(sourceBackupArn);
        sourceTableArn = TableChecks.orEmpty(sourceTableArn);
        TableChecks.required(restoreDateTime, "restore date time");
    }
}

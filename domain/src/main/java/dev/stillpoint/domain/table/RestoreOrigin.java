package dev.stillpoint.domain.table;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a restore comes from: the source table's ARN when the backup names one, and the restore's
 * time [E4]. The restored table's {@link RestoreSummary} is made from it.
 *
 * @param sourceTableArn the ARN of the table the backup was taken of, if the backup names one
 * @param restoreDateTime when the restore happened (kept once the restore completes)
 */
public record RestoreOrigin(Optional<String> sourceTableArn, Instant restoreDateTime) {

    /**
     * Normalises a missing ARN to empty and refuses a missing restore time.
     *
     * @param sourceTableArn the ARN of the table the backup was taken of, if known
     * @param restoreDateTime when the restore happened
     */
    public RestoreOrigin {
        sourceTableArn = TableChecks.orEmpty(sourceTableArn);
        TableChecks.required(restoreDateTime, "restore date time");
    }

    /**
     * The summary a restored table carries while its restore runs or once it completed.
     *
     * @param inProgress whether the restore is still running
     * @return the summary: no backup ARN, this origin's table ARN and time
     */
    public RestoreSummary summary(boolean inProgress) {
        return new RestoreSummary(Optional.empty(), sourceTableArn, restoreDateTime, inProgress);
    }
}

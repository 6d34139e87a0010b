package dev.stillpoint.domain.table;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a restore comes from: the source table's ARN when the backup names one, and the point in time
 * the restored data is of [E4]. The restored table's {@link RestoreSummary} is made from it.
 * DynamoDB's RestoreDateTime is "Point in time or source backup time"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html): for a
 * restore from an export, the export's time, not when the restore ran.
 *
 * @param sourceTableArn the ARN of the table the backup was taken of, if the backup names one
 * @param restoreDateTime the point in time restored to: the source backup's (export's) time
 */
public record RestoreOrigin(Optional<String> sourceTableArn, Instant restoreDateTime) {

    /**
     * Normalises a missing ARN to empty and refuses a missing restore time.
     *
     * @param sourceTableArn the ARN of the table the backup was taken of, if known
     * @param restoreDateTime the point in time restored to
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

package dev.stillpoint.domain.table;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a restore comes from: the backup it reads when that has a name, the source table's ARN when the
 * backup names one, and the point in time the restored data is of [E4]. The restored table's
 * {@link RestoreSummary} is made from it. DynamoDB's RestoreDateTime is "Point in time or source backup
 * time" (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html): for a
 * restore from an export, the export's time, not when the restore ran. The backup's name is kept as the
 * summary's SourceBackupArn, which every catalog already records: a restore from an export that names its
 * snapshot marker [L5] records the marker there, so an incremental export starting at that marker can be
 * applied to the table later [I3].
 *
 * @param sourceBackupArn the name of the backup restored, if it has one
 * @param sourceTableArn the ARN of the table the backup was taken of, if the backup names one
 * @param restoreDateTime the point in time restored to: the source backup's (export's) time
 */
public record RestoreOrigin(Optional<String> sourceBackupArn, Optional<String> sourceTableArn, Instant restoreDateTime) {

    /**
     * Normalises missing names to empty and refuses a missing restore time.
     *
     * @param sourceBackupArn the name of the backup restored, if it has one
     * @param sourceTableArn the ARN of the table the backup was taken of, if known
     * @param restoreDateTime the point in time restored to
     */
    public RestoreOrigin {
        sourceBackupArn = TableChecks.orEmpty(sourceBackupArn);
        sourceTableArn = TableChecks.orEmpty(sourceTableArn);
        TableChecks.required(restoreDateTime, "restore date time");
    }

    /**
     * An origin without a backup name.
     *
     * @param sourceTableArn the ARN of the table the backup was taken of, if known
     * @param restoreDateTime the point in time restored to
     */
    public RestoreOrigin(Optional<String> sourceTableArn, Instant restoreDateTime) {
        this(Optional.empty(), sourceTableArn, restoreDateTime);
    }

    /**
     * The summary a restored table carries while its restore runs or once it completed.
     *
     * @param inProgress whether the restore is still running
     * @return the summary: this origin's backup name, table ARN and time
     */
    public RestoreSummary summary(boolean inProgress) {
        return new RestoreSummary(sourceBackupArn, sourceTableArn, restoreDateTime, inProgress);
    }
}

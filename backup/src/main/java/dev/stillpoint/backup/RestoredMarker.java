package dev.stillpoint.backup;

import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import java.util.Optional;

/**
 * The snapshot marker [L5] a restored table stands at, kept in its RestoreSummary's SourceBackupArn: the
 * backup a table restored from an export came from is that export, and the export is named by the instant
 * it read, {@code <source table ARN>/stillpoint-snapshot/<marker>} (or {@code stillpoint-snapshot/<marker>}
 * when the export names no table). Every catalog already records the summary with the table (SQLite and
 * PostgreSQL in {@code sp_restore_records.source_backup_arn}, MongoDB in the catalog document), so no catalog
 * changed to keep it. A full restore records the full export's marker; applying an incremental export
 * requires the table's marker to be the export's start and records its end [I3].
 *
 * <p>DynamoDB's own SourceBackupArn names a backup (API reference, RestoreSummary:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html); this one names
 * the export's snapshot instead, which is what a restore from an export reads.
 */
final class RestoredMarker {
    static final String SEPARATOR = "stillpoint-snapshot/";

    private RestoredMarker() {
    }

    /** The SourceBackupArn naming the snapshot {@code marker} of the table {@code tableArn}. */
    static String backupArn(Optional<String> tableArn, String marker) {
        return tableArn.map(arn -> arn + "/" + SEPARATOR + marker).orElse(SEPARATOR + marker);
    }

    /** The marker a SourceBackupArn written by {@link #backupArn} names, or empty for any other name. */
    static Optional<String> markerOf(String backupArn) {
        if (backupArn.startsWith(SEPARATOR)) {
            return Optional.of(backupArn.substring(SEPARATOR.length())).filter(m -> !m.isEmpty());
        }
        // A table name holds no '/', so the first separator after the table ARN is ours.
        int at = backupArn.indexOf("/" + SEPARATOR);
        return at < 0 ? Optional.empty()
                : Optional.of(backupArn.substring(at + 1 + SEPARATOR.length())).filter(m -> !m.isEmpty());
    }

    /** The marker {@code table} stands at, when it was restored from an export that named one. */
    static Optional<String> of(TableDescription table) {
        return table.restoreSummary().flatMap(RestoreSummary::sourceBackupArn).flatMap(RestoredMarker::markerOf);
    }
}

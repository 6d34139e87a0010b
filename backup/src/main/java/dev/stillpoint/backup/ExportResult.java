package dev.stillpoint.backup;

import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What an export wrote.
 *
 * @param format      the layout written
 * @param description the table as the snapshot described it
 * @param info        what fixed the snapshot's instant
 * @param keyOrdered  whether the items came in key order
 * @param items       items written
 * @param bytes       bytes of the data files (as stored: gzipped for DynamoDB's layout)
 * @param sha256      hex SHA-256 of the items file (our layout); empty for DynamoDB's, which has an MD5 per file
 * @param dataFiles   the data files, in order
 * @param manifestFile the manifest that makes the export complete ({@code manifest.json} or
 *                    {@code manifest-summary.json})
 * @param openedAt    the instant read just before the snapshot opened: DynamoDB's {@code exportTime}
 * @param elapsed     how long the export took
 */
public record ExportResult(ExportFormat format, TableDescription description, SnapshotInfo info, boolean keyOrdered,
                           long items, long bytes, String sha256, List<Path> dataFiles, Path manifestFile,
                           Instant openedAt, Duration elapsed) {

    /** Copies the list. */
    public ExportResult {
        dataFiles = List.copyOf(dataFiles);
    }

    /** @return the one data file of our layout (the first of DynamoDB's) */
    public Path dataFile() {
        return dataFiles.get(0);
    }
}

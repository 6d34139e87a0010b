package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.ChangeWindow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * DynamoDB's incremental export layout [I3], as the developer guide's "DynamoDB table export output format"
 * page documents it (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html,
 * "Incremental export output"):
 * <ul>
 *   <li>{@value DynamoDbLayout#SUMMARY}: {@code version} {@value #VERSION}, exportArn, startTime, endTime,
 *       tableArn, tableId, {@code exportFromTime}, {@code exportToTime}, manifestFilesS3Key, billedSizeBytes,
 *       itemCount, outputFormat DYNAMODB_JSON, {@code outputView} (NEW_IMAGE or NEW_AND_OLD_IMAGES) and
 *       {@code exportType} INCREMENTAL_EXPORT; plus our member {@value #WINDOW} naming both markers
 *       ({@code since}, {@code until}), so the window is exact where DynamoDB's is two clock readings;</li>
 *   <li>{@value DynamoDbLayout#FILES}: one JSON line per data file (itemCount, md5Checksum, etag,
 *       dataFileS3Key), as a full export's; {@code .checksum} files beside both manifests;</li>
 *   <li>a gzipped data file under {@code data/}, one line per changed key:
 *       {@code {"Metadata":{"WriteTimestampMicros":{"N":".."}},"Keys":{..},"NewImage":{..},"OldImage":{..}}},
 *       all in DynamoDB JSON; NewImage absent for a delete, OldImage only in the NEW_AND_OLD_IMAGES view and
 *       only where the key had an item at the window's start.</li>
 * </ul>
 *
 * <p>The clock readings are bounds, not the window: no backend's log keeps a write's wall-clock time, so
 * {@code WriteTimestampMicros} is the instant read just after the window's snapshot was read (every write in
 * the window committed before it), in whole microseconds, and {@code exportToTime}, which DynamoDB's API calls
 * the exclusive end, is the microsecond after it: a reader that keeps only lines before the end keeps every
 * line. {@code exportFromTime} is null (a marker carries no clock reading). The window itself is the
 * markers'. One line per key changed, as ours.
 *
 * <p>Where the fields come from: the page's URL above, found with the docs search; the copy reachable here
 * gave the page's full-export part, and the incremental summary's members (version 2023-08-01,
 * exportFromTime, exportToTime, outputView, exportType) were taken from the statement and checked
 * against public readers' fixtures of the page's incremental example, not read from the page itself.
 */
final class DynamoDbChangesLayout {
    /** The incremental summary's version, as DynamoDB's incremental manifests carry it. */
    static final String VERSION = "2023-08-01";
    static final String EXPORT_TYPE = "INCREMENTAL_EXPORT";
    /** Our member of the summary: the window's two markers. */
    static final String WINDOW = "stillpointWindow";

    private DynamoDbChangesLayout() {
    }

    static ChangesExport.Result write(ChangeLogReads reads, String account, String table, String sinceMarker,
                                      Optional<ChangeLog> asked, Path dir, ExportTemps temps, long started)
            throws IOException {
        String exportId = DynamoDbLayout.newExportId();
        String dataName = DynamoDbLayout.dataFileName(exportId, 0);
        Path dataDir = temps.directory(dir.resolve(DynamoDbLayout.DATA_DIR));
        Path dataTemp = temps.create(dataDir, dataName);
        ChangeFile file = new ChangeFile(dataTemp, true, TableExport.digest("MD5"), (window, read) -> {
            ChangeLog shown = ChangesExport.viewOf(window.description(), asked);
            long micros = ChronoUnit.MICROS.between(Instant.EPOCH, read);
            String metadata = "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"" + micros + "\"}},";
            KeySchema schema = window.description().keySchema();
            return c -> ChangesExport.body(new StringBuilder(256).append(metadata), c, schema, shown)
                    .append("}\n").toString().getBytes(StandardCharsets.UTF_8);
        });
        ChangesExport.stream(reads, account, table, sinceMarker, file);
        ChangeWindow changes = file.window();
        TableDescription description = changes.description();
        ChangeLog view = ChangesExport.viewOf(description, asked);
        Instant read = file.begunAt();
        long puts = file.puts();
        long tombstones = file.tombstones();
        long billed = file.lineBytes() - (puts + tombstones);
        byte[] md5 = file.digest();
        long dataBytes = Files.size(dataTemp);

        ObjectNode line = DescriptionJson.MAPPER.createObjectNode()
                .put("itemCount", puts + tombstones)
                .put("md5Checksum", Base64.getEncoder().encodeToString(md5))
                .put("etag", HexFormat.of().formatHex(md5))
                .put("dataFileS3Key", DynamoDbLayout.DATA_DIR + "/" + dataName);
        byte[] files = (DescriptionJson.COMPACT.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
        ObjectNode s = DescriptionJson.MAPPER.createObjectNode();
        s.put("version", VERSION);
        s.put("exportArn", description.tableArn() + "/export/" + exportId);
        s.put("startTime", Instant.ofEpochMilli(System.currentTimeMillis()
                - Duration.ofNanos(System.nanoTime() - started).toMillis()).toString());
        s.put("endTime", Instant.now().toString());
        s.put("tableArn", description.tableArn());
        s.put("tableId", description.tableId());
        s.putNull("exportFromTime");
        s.put("exportToTime", read.truncatedTo(ChronoUnit.MICROS).plus(1, ChronoUnit.MICROS).toString());
        s.putNull("s3Bucket");
        s.putNull("s3Prefix");
        s.putNull("s3SseAlgorithm");
        s.putNull("s3SseKmsKeyId");
        s.put("manifestFilesS3Key", DynamoDbLayout.FILES);
        s.put("billedSizeBytes", billed);
        s.put("itemCount", puts + tombstones);
        s.put("outputFormat", DynamoDbLayout.OUTPUT_FORMAT);
        s.put("outputView", view.name());
        s.put("exportType", EXPORT_TYPE);
        ObjectNode window = s.putObject(WINDOW);
        window.putObject("since").put("kind", changes.since().kind()).put("marker", changes.since().marker());
        window.putObject("until").put("kind", changes.until().kind()).put("marker", changes.until().marker());
        window.put("puts", puts).put("tombstones", tombstones);
        window.set("table", DescriptionJson.of(description, false));
        byte[] summary = (DescriptionJson.text(s) + "\n").getBytes(StandardCharsets.UTF_8);

        Path filesTemp = written(temps, dir, DynamoDbLayout.FILES, files);
        Path filesSum = written(temps, dir, DynamoDbLayout.FILES_CHECKSUM, md5Hex(files));
        Path summarySum = written(temps, dir, DynamoDbLayout.SUMMARY_CHECKSUM, md5Hex(summary));
        Path summaryTemp = written(temps, dir, DynamoDbLayout.SUMMARY, summary);
        Path dataFile = dataDir.resolve(dataName);
        Path summaryFile = dir.resolve(DynamoDbLayout.SUMMARY);
        temps.commit(() -> {
            Files.deleteIfExists(summaryFile);
            LayoutWriter.rename(dataTemp, dataFile);
            LayoutWriter.rename(filesTemp, dir.resolve(DynamoDbLayout.FILES));
            LayoutWriter.rename(filesSum, dir.resolve(DynamoDbLayout.FILES_CHECKSUM));
            LayoutWriter.rename(summarySum, dir.resolve(DynamoDbLayout.SUMMARY_CHECKSUM));
            LayoutWriter.rename(summaryTemp, summaryFile);
        });
        return new ChangesExport.Result(changes, puts, tombstones, dataBytes, null, dataFile, summaryFile,
                Duration.ofNanos(System.nanoTime() - started), ExportFormat.DYNAMODB, view);
    }

    private static Path written(ExportTemps temps, Path dir, String name, byte[] bytes) throws IOException {
        Path temp = temps.create(dir, name);
        LayoutWriter.writeSynced(temp, bytes);
        return temp;
    }

    private static byte[] md5Hex(byte[] bytes) {
        return HexFormat.of().formatHex(TableExport.digest("MD5").digest(bytes)).getBytes(StandardCharsets.US_ASCII);
    }
}

package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * Reads and checks DynamoDB's incremental export layout [I3] for {@link CheckedChanges}: the summary's
 * version {@value DynamoDbChangesLayout#VERSION}, exportType INCREMENTAL_EXPORT, outputFormat DYNAMODB_JSON and
 * outputView, both {@code .checksum} files, every data file of {@code manifest-files.json} (its MD5 and item
 * count), the summary's total, and our {@value DynamoDbChangesLayout#WINDOW} member's markers and counts, as
 * the developer guide's "DynamoDB table export output format" page lays the files out
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html). An incremental
 * export DynamoDB itself wrote names no markers, only two clock readings, so nothing says which table state
 * it starts from: it is refused by name rather than applied on a guess.
 */
final class DynamoDbChangesCheck {

    private DynamoDbChangesCheck() {
    }

    static CheckedChanges check(Path root, Path summaryFile, TableDescription target) {
        Path exportDir = summaryFile.getParent();
        DynamoDbExportCheck.verifyChecksumFile(summaryFile, exportDir.resolve(DynamoDbLayout.SUMMARY_CHECKSUM));
        JsonNode s = ManifestJson.readJson(summaryFile);
        require(s, "exportType", DynamoDbChangesLayout.EXPORT_TYPE, summaryFile);
        require(s, "version", DynamoDbChangesLayout.VERSION, summaryFile);
        require(s, "outputFormat", DynamoDbLayout.OUTPUT_FORMAT, summaryFile);
        ChangeLog view = CheckedChanges.view(s.path("outputView").asText(""), summaryFile);
        JsonNode window = s.path(DynamoDbChangesLayout.WINDOW);
        if (!window.isObject()) {
            throw new BackupFailure(Problem.FORMAT, summaryFile, 0, summaryFile + " names no snapshot markers (no "
                    + DynamoDbChangesLayout.WINDOW + "): its window is two clock readings, so which table state it"
                    + " starts from is unknown; only an incremental export written by Stillpoint is applied", null);
        }
        String since = ManifestJson.requiredText(window.path("since"), "marker", summaryFile);
        String until = ManifestJson.requiredText(window.path("until"), "marker", summaryFile);
        long total = ManifestJson.requiredCount(s, "itemCount", summaryFile);
        Path filesManifest = DynamoDbExportCheck.resolve(root, exportDir,
                s.path("manifestFilesS3Key").asText(DynamoDbLayout.FILES), summaryFile, 0);
        DynamoDbExportCheck.verifyChecksumFile(filesManifest, exportDir.resolve(DynamoDbLayout.FILES_CHECKSUM));
        List<DynamoDbExportCheck.DataFileEntry> entries = DynamoDbExportCheck.dataFiles(root, exportDir, filesManifest);
        try (ChangeLines lines = new ChangeLines(target, view, true)) {
            long seen = 0;
            for (DynamoDbExportCheck.DataFileEntry entry : entries) {
                Path file = entry.file();
                long count = entry.items();
                String md5 = entry.md5();
                DataFileLines.FileDigest d = DataFileLines.read(file, true, "MD5", (text, line) -> lines.add(file, line, text));
                String actual = Base64.getEncoder().encodeToString(d.digest());
                // Integrity first [V5]: a damaged or cut file is exit 11 whatever its damaged lines look like.
                if (!actual.equals(md5)) {
                    throw new BackupFailure(Problem.INTEGRITY, file, 0, file + ": MD5 " + actual
                            + " is not manifest-files.json's md5Checksum " + md5 + d.cut(), null);
                }
                if (d.lines() >= 0 && d.lines() != count) {
                    throw new BackupFailure(Problem.INTEGRITY, file, 0, file + " holds " + d.lines()
                            + " changes; manifest-files.json says " + count, null);
                }
                d.requireItems();
                seen += d.lines();
            }
            if (seen != total) {
                throw new BackupFailure(Problem.INTEGRITY, summaryFile, 0, "the data files hold " + seen + " changes; "
                        + summaryFile + " says " + total, null);
            }
            lines.requireCounts(ManifestJson.requiredCount(window, "puts", summaryFile),
                    ManifestJson.requiredCount(window, "tombstones", summaryFile), summaryFile);
            return CheckedChanges.of(ExportFormat.DYNAMODB, root, since, until,
                    ManifestJson.optionalInstant(s, "exportToTime", summaryFile), view, lines.checked());
        }
    }

    private static void require(JsonNode s, String field, String expected, Path summary) {
        String value = s.path(field).asText("");
        if (!expected.equals(value)) {
            throw new BackupFailure(Problem.FORMAT, summary, 0, summary + ": " + field + " '" + value + "' is not "
                    + expected + ", as an incremental export this build applies has it", null);
        }
    }
}

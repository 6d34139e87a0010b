package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads and checks a DynamoDB DYNAMODB_JSON export [E3] for {@link ExportReader}: finds
 * {@code manifest-summary.json} (in the directory or one export below {@code AWSDynamoDB/}), checks its
 * version, output format and {@code .checksum} files, resolves every data file of
 * {@code manifest-files.json}, and checks each file's MD5 and item count and the summary's total.
 */
final class DynamoDbExportCheck {

    private static final Pattern HEX_MD5 = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern BASE64_MD5 = Pattern.compile("[A-Za-z0-9+/]{21}[AQgw]==");

    private DynamoDbExportCheck() {
    }

    static Optional<Path> findSummary(Path dir) {
        Path direct = dir.resolve(DynamoDbLayout.SUMMARY);
        if (Files.exists(direct)) {
            return Optional.of(direct);
        }
        Path aws = dir.resolve("AWSDynamoDB");
        if (Files.isDirectory(aws)) {
            try (var exports = Files.list(aws)) {
                List<Path> found = exports.map(p -> p.resolve(DynamoDbLayout.SUMMARY)).filter(Files::exists).toList();
                if (found.size() > 1) {
                    throw new BackupFailure(Problem.FORMAT, aws, 0, aws + " holds " + found.size()
                            + " exports; name one of them", null);
                }
                return found.stream().findFirst();
            } catch (IOException e) {
                throw ManifestJson.unreadable(aws, e);
            }
        }
        return Optional.empty();
    }

    static CheckedExport check(Path root, Path summaryFile, String target, Optional<ExportKey> given) {
        Path exportDir = summaryFile.getParent();
        verifyChecksumFile(summaryFile, exportDir.resolve(DynamoDbLayout.SUMMARY_CHECKSUM));
        JsonNode s = ManifestJson.readJson(summaryFile);
        String version = s.path("version").asText("");
        if (!DynamoDbLayout.VERSION.equals(version)) {
            throw new BackupFailure(Problem.FORMAT, summaryFile, 0, summaryFile + ": version '" + version
                    + "' is not " + DynamoDbLayout.VERSION + ", the version this build reads", null);
        }
        String outputFormat = s.path("outputFormat").asText("");
        if (!DynamoDbLayout.OUTPUT_FORMAT.equals(outputFormat)) {
            throw new BackupFailure(Problem.FORMAT, summaryFile, 0, summaryFile + ": outputFormat '" + outputFormat
                    + "' is not " + DynamoDbLayout.OUTPUT_FORMAT + " (the one layout restored)", null);
        }
        if (s.hasNonNull("exportType") && !"FULL_EXPORT".equals(s.get("exportType").asText())) {
            throw new BackupFailure(Problem.FORMAT, summaryFile, 0, summaryFile + ": exportType '"
                    + s.get("exportType").asText() + "' is not FULL_EXPORT", null);
        }
        ExportKey key = given.orElseThrow(() -> new BackupFailure(Problem.FORMAT, summaryFile, 0, summaryFile
                + ": a DynamoDB export carries no table definition; give the key (e.g. pk:S,sk:N)", null));
        long total = ManifestJson.requiredCount(s, "itemCount", summaryFile);
        Path filesManifest = resolve(root, exportDir, s.path("manifestFilesS3Key").asText(DynamoDbLayout.FILES),
                summaryFile, 0);
        verifyChecksumFile(filesManifest, exportDir.resolve(DynamoDbLayout.FILES_CHECKSUM));
        List<DataFileEntry> entries = dataFiles(root, exportDir, filesManifest);
        // The new table is created from the key alone [E4]: its rules are the ones each line must pass. Only
        // the key attributes' definitions are its own (a caller may give more, which CreateTable refuses).
        List<String> keyNames = key.schema().sortKey().map(sort -> List.of(key.schema().partitionKey(), sort))
                .orElse(List.of(key.schema().partitionKey()));
        TableDescription rules = DataFileLines.rulesOf(new CreateTableRequest("000000000000", target,
                key.schema(), key.definitions().stream().filter(d -> keyNames.contains(d.name())).toList(),
                List.of(), List.of(), Optional.empty()));
        List<ExportReader.Scan> files = new ArrayList<>();
        for (int f = 0; f < entries.size(); f++) {
            DataFileEntry entry = entries.get(f);
            int index = f;
            files.add(items -> {
                DataFileLines.FileDigest d = DataFileLines.read(entry.file(), true, "MD5", key, rules, items, index);
                String md5 = Base64.getEncoder().encodeToString(d.digest());
                // Integrity first [V5]: a damaged or cut file is exit 11 whatever its damaged lines look like.
                if (!md5.equals(entry.md5())) {
                    throw new BackupFailure(Problem.INTEGRITY, entry.file(), 0, entry.file() + ": MD5 " + md5
                            + " is not manifest-files.json's md5Checksum " + entry.md5() + d.cut(), null);
                }
                if (d.lines() >= 0 && d.lines() != entry.items()) {
                    throw new BackupFailure(Problem.INTEGRITY, entry.file(), 0, entry.file() + " holds " + d.lines()
                            + " items; manifest-files.json says " + entry.items(), null);
                }
                d.requireItems();
            });
        }
        // Each file's count is checked against its manifest line as it is read, so the files' total is the sum
        // of those lines: checked once every file is read, as before any file was read alone.
        long listed = entries.stream().mapToLong(DataFileEntry::items).sum();
        ExportReader.Scan scan = items -> {
            files.forEach(file -> file.run(items));
            if (listed != total) {
                throw new BackupFailure(Problem.INTEGRITY, summaryFile, 0, "the data files hold " + listed + " items; "
                        + summaryFile + " says " + total, null);
            }
        };
        Optional<String> arn = s.hasNonNull("tableArn") ? Optional.of(s.get("tableArn").asText()) : Optional.empty();
        return new CheckedExport(ExportFormat.DYNAMODB, root, total, Optional.empty(), arn,
                ManifestJson.optionalInstant(s, "exportTime", summaryFile), key, scan, files,
                entries.stream().map(DataFileEntry::file).toList(),
                ExportReader.optionalText(s.path(DynamoDbLayout.SNAPSHOT), "marker"));
    }

    /** One line of {@value DynamoDbLayout#FILES}: a data file, its item count and its base64 MD5. */
    record DataFileEntry(Path file, long items, String md5) {
    }

    /**
     * The data files {@code filesManifest} lists, each resolved inside the export. A file listed twice is
     * refused by name: its items would be read twice, and a refusal of their keys as duplicates would point
     * at one line of one file rather than at the manifest.
     */
    static List<DataFileEntry> dataFiles(Path root, Path exportDir, Path filesManifest) {
        List<DataFileEntry> entries = new ArrayList<>();
        Map<Path, Integer> listedAt = new HashMap<>();
        List<String> lines = ManifestJson.readAllLines(filesManifest);
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.isBlank()) {
                continue;
            }
            JsonNode e;
            try {
                e = ManifestJson.JSON.readTree(text);
            } catch (JsonProcessingException ex) {
                throw new BackupFailure(Problem.FORMAT, filesManifest, i + 1, filesManifest + " line " + (i + 1)
                        + " is not JSON: " + ex.getOriginalMessage(), ex);
            }
            String dataKey = ManifestJson.requiredText(e, "dataFileS3Key", filesManifest, i + 1);
            Path file = resolve(root, exportDir, dataKey, filesManifest, i + 1);
            Integer earlier = listedAt.putIfAbsent(realPath(file), i + 1);
            if (earlier != null) {
                throw new BackupFailure(Problem.FORMAT, filesManifest, i + 1, filesManifest + " line " + (i + 1)
                        + " names '" + dataKey + "', the data file line " + earlier + " names: each is listed once",
                        null);
            }
            entries.add(new DataFileEntry(file, ManifestJson.requiredCount(e, "itemCount", filesManifest, i + 1),
                    ManifestJson.requiredText(e, "md5Checksum", filesManifest, i + 1)));
        }
        return entries;
    }

    // Two keys reaching one file (a link, "data/x" beside "x") are one file.
    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    static Path resolve(Path root, Path exportDir, String key, Path manifest, long line) {
        List<Path> candidates = new ArrayList<>();
        if (!key.isEmpty() && !key.startsWith("/") && !key.contains("..")) {
            candidates.add(root.resolve(key));
            candidates.add(exportDir.resolve(key));
        }
        String name = key.substring(key.lastIndexOf('/') + 1);
        if (!name.isEmpty() && !name.equals("..")) {
            candidates.add(exportDir.resolve(DynamoDbLayout.DATA_DIR).resolve(name));
            candidates.add(exportDir.resolve(name));
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                return c;
            }
        }
        throw new BackupFailure(Problem.FORMAT, manifest, line, manifest + (line > 0 ? " line " + line : "")
                + " names '" + key + "', which is not in " + exportDir, null);
    }

    /**
     * Checks a manifest against its {@code .checksum} file, when there is one. AWS documents the file but not
     * its encoding, and tools that write its layout disagree (the MD5 in hex, or in base64 as
     * {@code md5Checksum} holds it in {@value DynamoDbLayout#FILES}), so both forms are read; other text is
     * refused by name rather than guessed at, and a wrong MD5 in either form is an integrity failure.
     */
    static void verifyChecksumFile(Path file, Path checksum) {
        if (!Files.exists(checksum)) {
            return;
        }
        ManifestJson.requireReadableSize(checksum);
        ManifestJson.requireReadableSize(file);
        try {
            String expected = Files.readString(checksum, StandardCharsets.US_ASCII).trim();
            byte[] recorded = md5Of(expected).orElseThrow(() -> new BackupFailure(Problem.FORMAT, checksum, 0,
                    checksum + " holds '" + shown(expected) + "', which is neither a hex nor a base64 MD5;"
                            + " remove it to restore without checking " + file.getFileName(), null));
            byte[] actual = TableExport.digest("MD5").digest(Files.readAllBytes(file));
            if (!MessageDigest.isEqual(recorded, actual)) {
                throw new BackupFailure(Problem.INTEGRITY, file, 0, file + ": MD5 " + HexFormat.of().formatHex(actual)
                        + " is not " + checksum.getFileName() + "'s " + expected, null);
            }
        } catch (IOException e) {
            throw ManifestJson.unreadable(checksum, e);
        }
    }

    private static String shown(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }

    /** The 16 bytes an MD5 written as 32 hex digits or as padded base64 (24 characters) stands for. */
    private static Optional<byte[]> md5Of(String text) {
        if (HEX_MD5.matcher(text).matches()) {
            return Optional.of(HexFormat.of().parseHex(text.toLowerCase(Locale.ROOT)));
        }
        if (BASE64_MD5.matcher(text).matches()) {
            return Optional.of(Base64.getDecoder().decode(text));
        }
        return Optional.empty();
    }
}

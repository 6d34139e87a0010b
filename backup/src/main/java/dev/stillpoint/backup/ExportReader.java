package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads an export directory of either layout and checks ALL of it before anything is written [E3]:
 * the format and its version, every checksum (our sha256; DynamoDB's per-file MD5 and the manifests'
 * {@code .checksum} files where present), every item count (per file and in all), every gzip stream to
 * its end, and every line: one well-formed DynamoDB JSON item ({@link ItemCheck}, then decoded as a
 * write would decode it) carrying the key attributes with the key's types. For DynamoDB's layout, which
 * carries no definition, the key comes from the caller. A bad input is a {@link BackupFailure} naming
 * the file and the line.
 *
 * <p>DynamoDB's layout is found in the directory itself ({@code manifest-summary.json}) or one export
 * below it ({@code AWSDynamoDB/<ExportId>/manifest-summary.json}, as copied from S3); a data file's
 * {@code dataFileS3Key} is resolved against the directory, then the summary's directory, then its
 * {@code data/} folder by file name. Data files are gzipped or not (by their magic bytes); an empty
 * file holds no items (DynamoDB writes one for an empty partition).
 *
 * <p>This class reads our layout and dispatches; {@link DynamoDbExportCheck} reads DynamoDB's,
 * {@link DataFileLines} checks a data file line by line, {@link ManifestJson} reads the manifests.
 */
public final class ExportReader {

    /** One full reading of the export, telling {@code items} every decoded item with its place. */
    interface Scan {
        void run(Placed items);
    }

    /** Told each item of a reading and its place ({@link KeyDigests#place}: which file, which line). */
    interface Placed {
        void accept(Item item, long place);
    }

    /** Told as the check reads the export's lines, on the checking thread: a progress display listens [X2]. */
    public interface CheckListener {
        /** Listens to nothing. */
        CheckListener NONE = (lines, total) -> { };

        /**
         * One more line read and checked.
         *
         * @param lines lines read so far
         * @param total the lines the manifests announce
         */
        void checked(long lines, long total);
    }

    /**
     * What a restore does with two lines that hold one key [V4], keys compared as DynamoDB compares them.
     */
    public enum Duplicates {
        /** The check refuses the input, naming both lines: the default. */
        REFUSE,
        /** The later line wins, as a second PutItem would; the earlier lines are not loaded and are counted. */
        LAST_WINS
    }

    private ExportReader() {
    }

    /**
     * Reads and checks the whole export in {@code dir}.
     *
     * @param dir the export directory
     * @param table the name of the table the items are to be put into; PutItem's refusals name it
     * @param key the key for an export that carries no definition (DynamoDB's layout); for ours, when
     *            given, it must equal the exported key
     * @return the checked export
     * @throws BackupFailure FORMAT, INTEGRITY or ITEM, naming the file and line
     */
    public static CheckedExport check(Path dir, String table, Optional<ExportKey> key) {
        return check(dir, table, key, Duplicates.REFUSE);
    }

    /**
     * Reads and checks the whole export in {@code dir}, one key per item or as {@code duplicates} says.
     *
     * @param dir the export directory
     * @param table the name of the table the items are to be put into; PutItem's refusals name it
     * @param key the key for an export that carries no definition (DynamoDB's layout); for ours, when
     *            given, it must equal the exported key (names and types)
     * @param duplicates what two lines holding one key do: refuse the input, or the last one wins
     * @return the checked export
     * @throws BackupFailure FORMAT, INTEGRITY or ITEM (also two lines with one key), naming the file and line
     */
    public static CheckedExport check(Path dir, String table, Optional<ExportKey> key, Duplicates duplicates) {
        return check(dir, table, key, duplicates, CheckListener.NONE);
    }

    /**
     * Reads and checks the whole export in {@code dir} as {@link #check(Path, String, Optional, Duplicates)}
     * does, telling {@code listener} as the lines are read.
     *
     * @param dir the export directory
     * @param table the name of the table the items are to be put into; PutItem's refusals name it
     * @param key the key for an export that carries no definition (DynamoDB's layout); for ours, when
     *            given, it must equal the exported key (names and types)
     * @param duplicates what two lines holding one key do: refuse the input, or the last one wins
     * @param listener told each line read, with the total the manifests announce
     * @return the checked export
     * @throws BackupFailure FORMAT, INTEGRITY or ITEM (also two lines with one key), naming the file and line
     * @throws StorageException VALIDATION when {@code table} is not a table name, before anything is read
     */
    public static CheckedExport check(Path dir, String table, Optional<ExportKey> key, Duplicates duplicates,
                                      CheckListener listener) {
        // The name first: a bad one is the caller's mistake, not the export's, and nothing is read for it.
        Names.requireTableName(table);
        CheckedExport export = layout(dir, table, key);
        export.checkAll(duplicates, listener);
        return export;
    }

    private static CheckedExport layout(Path dir, String target, Optional<ExportKey> key) {
        if (!Files.isDirectory(dir)) {
            throw new BackupFailure(Problem.FORMAT, dir, 0, "export directory " + dir + " does not exist or is not a directory", null);
        }
        Path ours = dir.resolve(StillpointLayout.MANIFEST_FILE);
        Optional<Path> summary = DynamoDbExportCheck.findSummary(dir);
        if (Files.exists(ours) && summary.isPresent()) {
            // Two exports in one directory: which one the user means is not ours to guess.
            throw new BackupFailure(Problem.FORMAT, dir, 0, dir + " holds two exports, ours (" + ours.getFileName()
                    + ") and DynamoDB's (" + dir.relativize(summary.get()) + "); restore from a directory holding one", null);
        }
        if (Files.exists(ours)) {
            return checkOurs(dir, ours, target, key);
        }
        if (summary.isPresent()) {
            return DynamoDbExportCheck.check(dir, summary.get(), target, key);
        }
        throw new BackupFailure(Problem.FORMAT, dir, 0, "no export in " + dir + ": neither " + StillpointLayout.MANIFEST_FILE
                + " nor " + DynamoDbLayout.SUMMARY + " (nor AWSDynamoDB/<ExportId>/" + DynamoDbLayout.SUMMARY + ")", null);
    }

    private static CheckedExport checkOurs(Path dir, Path manifestFile, String target, Optional<ExportKey> given) {
        JsonNode m = ManifestJson.readJson(manifestFile);
        String format = m.path("format").asText("");
        if (!StillpointLayout.FORMAT.equals(format) && !StillpointLayout.FORMAT_SEGMENTED.equals(format)) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": format '" + format
                    + "' is not " + StillpointLayout.FORMAT + " or " + StillpointLayout.FORMAT_SEGMENTED
                    + ", the versions this build reads", null);
        }
        long count = ManifestJson.requiredCount(m, "itemCount", manifestFile);
        List<OurDataFile> entries = StillpointLayout.FORMAT.equals(format) ? List.of(singleFile(dir, m, manifestFile, count))
                : segmentFiles(dir, m, manifestFile, count);
        JsonNode table = m.path("table");
        ExportKey key;
        TableDescription rules;
        try {
            // Under the target's name: a refusal names the table the user restores into [R6].
            var request = DescriptionJson.definition(table, "000000000000", target);
            key = new ExportKey(request.keySchema(), request.attributeDefinitions());
            rules = DataFileLines.rulesOf(request);
        } catch (IllegalArgumentException | StorageException e) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": the table definition is not"
                    + " sound: " + e.getMessage(), e);
        }
        // Names and types [V5]: pk:N,sk:N is not the key of a pk:S,sk:N export, though the names agree.
        if (given.isPresent() && !given.get().shown().equals(key.shown())) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": the export's key ("
                    + key.shown() + ") is not the key given with --key (" + given.get().shown() + ")", null);
        }
        ExportKey checked = key;
        List<Scan> files = new ArrayList<>();
        for (int f = 0; f < entries.size(); f++) {
            OurDataFile entry = entries.get(f);
            int index = f;
            files.add(items -> {
                Path data = entry.file();
                DataFileLines.FileDigest d = DataFileLines.read(data, false, "SHA-256", checked, rules, items, index);
                // Integrity first [V5]: a file changed or cut short is exit 11 whatever its damaged lines look like.
                if (!HexFormat.of().formatHex(d.digest()).equals(entry.sha256())) {
                    throw new BackupFailure(Problem.INTEGRITY, data, 0, data + ": sha256 "
                            + HexFormat.of().formatHex(d.digest()) + " is not the manifest's " + entry.sha256() + d.cut(), null);
                }
                if (d.lines() >= 0 && d.lines() != entry.items()) {
                    throw new BackupFailure(Problem.INTEGRITY, data, 0, data + " holds " + d.lines() + " items; "
                            + manifestFile.getFileName() + " says " + entry.items(), null);
                }
                d.requireItems();
            });
        }
        Optional<String> arn = table.hasNonNull("TableArn") ? Optional.of(table.get("TableArn").asText()) : Optional.empty();
        return new CheckedExport(ExportFormat.STILLPOINT, dir, count, Optional.of(table), arn,
                ManifestJson.optionalInstant(m.path("snapshot"), "openedAt", manifestFile), key,
                items -> files.forEach(file -> file.run(items)), files,
                entries.stream().map(OurDataFile::file).toList(),
                optionalText(m.path("snapshot"), "marker"));
    }

    /** One data file of our layout as its manifest lists it. */
    private record OurDataFile(Path file, long items, String sha256) {
    }

    /** Format 1: the one {@value StillpointLayout#DATA_FILE} holding every item. */
    private static OurDataFile singleFile(Path dir, JsonNode m, Path manifestFile, long count) {
        String dataName = ManifestJson.requiredText(m, "dataFile", manifestFile);
        if (!StillpointLayout.DATA_FILE.equals(dataName)) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": dataFile '" + dataName
                    + "' is not " + StillpointLayout.DATA_FILE, null);
        }
        return new OurDataFile(dir.resolve(StillpointLayout.DATA_FILE), count,
                ManifestJson.requiredText(m, "sha256", manifestFile));
    }

    /**
     * Format 2 ({@code export -j N}) [B3]: {@code dataFiles}, one per segment, named {@code items-00000.jsonl} up
     * in order (no other name is read, so a manifest cannot point outside the directory), whose counts add up
     * to the manifest's itemCount.
     */
    private static List<OurDataFile> segmentFiles(Path dir, JsonNode m, Path manifestFile, long count) {
        JsonNode listed = m.get("dataFiles");
        if (listed == null || !listed.isArray() || listed.isEmpty()) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": field dataFiles is missing,"
                    + " not a list or empty", null);
        }
        List<OurDataFile> files = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < listed.size(); i++) {
            JsonNode e = listed.get(i);
            String name = ManifestJson.requiredText(e, "file", manifestFile);
            if (!StillpointLayout.segmentFile(i).equals(name)) {
                throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": dataFiles[" + i + "] is '"
                        + name + "', not " + StillpointLayout.segmentFile(i), null);
            }
            long items = ManifestJson.requiredCount(e, "itemCount", manifestFile);
            files.add(new OurDataFile(dir.resolve(name), items, ManifestJson.requiredText(e, "sha256", manifestFile)));
            sum += items;
        }
        if (sum != count) {
            throw new BackupFailure(Problem.INTEGRITY, manifestFile, 0, manifestFile + ": its dataFiles hold " + sum
                    + " items in all; its itemCount says " + count, null);
        }
        return files;
    }

    /** A text field, when present and not empty. */
    static Optional<String> optionalText(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() && !v.asText().isEmpty() ? Optional.of(v.asText()) : Optional.empty();
    }

    /**
     * A key as the command line writes it: {@code pk:S} or {@code pk:S,sk:N}.
     *
     * @param text the key
     * @return the key
     * @throws IllegalArgumentException naming what is wrong
     */
    public static ExportKey parseKey(String text) {
        String[] parts = text.split(",", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("expected HASH:TYPE[,RANGE:TYPE], e.g. pk:S,sk:N; got '" + text + "'");
        }
        List<AttributeDefinition> definitions = new ArrayList<>();
        for (String part : parts) {
            int colon = part.lastIndexOf(':');
            if (colon <= 0 || colon == part.length() - 1) {
                throw new IllegalArgumentException("expected ATTR:TYPE with TYPE one of S, N, B in '" + text + "'");
            }
            String type = part.substring(colon + 1).toUpperCase(java.util.Locale.ROOT);
            if (!List.of("S", "N", "B").contains(type)) {
                throw new IllegalArgumentException("key type '" + part.substring(colon + 1) + "' in '" + text
                        + "' is not one of S, N, B");
            }
            definitions.add(new AttributeDefinition(part.substring(0, colon), ScalarType.valueOf(type)));
        }
        return new ExportKey(new dev.stillpoint.domain.key.KeySchema(definitions.get(0).name(),
                definitions.size() == 2 ? Optional.of(definitions.get(1).name()) : Optional.empty()), definitions);
    }
}

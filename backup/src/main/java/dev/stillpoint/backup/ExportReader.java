package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.ports.in.StoredItem;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

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
 */
public final class ExportReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory LINES = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** One full reading of the export, telling {@code items} every decoded item. */
    interface Scan {
        void run(Consumer<Item> items);
    }

    private ExportReader() {
    }

    /**
     * Reads and checks the whole export in {@code dir}.
     *
     * @param dir the export directory
     * @param key the key for an export that carries no definition (DynamoDB's layout); for ours, when
     *            given, it must equal the exported key
     * @return the checked export
     * @throws BackupFailure FORMAT, INTEGRITY or ITEM, naming the file and line
     */
    public static CheckedExport check(Path dir, Optional<ExportKey> key) {
        if (!Files.isDirectory(dir)) {
            throw new BackupFailure(Problem.FORMAT, dir, 0, "export directory " + dir + " does not exist or is not a directory", null);
        }
        Path ours = dir.resolve(StillpointLayout.MANIFEST_FILE);
        if (Files.exists(ours)) {
            return checkOurs(dir, ours, key);
        }
        Optional<Path> summary = findSummary(dir);
        if (summary.isPresent()) {
            return checkDynamoDb(dir, summary.get(), key);
        }
        throw new BackupFailure(Problem.FORMAT, dir, 0, "no export in " + dir + ": neither " + StillpointLayout.MANIFEST_FILE
                + " nor " + DynamoDbLayout.SUMMARY + " (nor AWSDynamoDB/<ExportId>/" + DynamoDbLayout.SUMMARY + ")", null);
    }

    // ---------------------------------------------------------------- ours

    private static CheckedExport checkOurs(Path dir, Path manifestFile, Optional<ExportKey> given) {
        JsonNode m = readJson(manifestFile);
        String format = m.path("format").asText("");
        if (!StillpointLayout.FORMAT.equals(format)) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": format '" + format
                    + "' is not " + StillpointLayout.FORMAT + ", the version this build reads", null);
        }
        String dataName = requiredText(m, "dataFile", manifestFile);
        if (!StillpointLayout.DATA_FILE.equals(dataName)) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": dataFile '" + dataName
                    + "' is not " + StillpointLayout.DATA_FILE, null);
        }
        long count = requiredCount(m, "itemCount", manifestFile);
        String sha = requiredText(m, "sha256", manifestFile);
        JsonNode table = m.path("table");
        ExportKey key;
        try {
            var request = DescriptionJson.definition(table, "000000000000", "check-only");
            key = new ExportKey(request.keySchema(), request.attributeDefinitions());
        } catch (IllegalArgumentException | StorageException e) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": the table definition is not"
                    + " sound: " + e.getMessage(), e);
        }
        if (given.isPresent() && !given.get().schema().equals(key.schema())) {
            throw new BackupFailure(Problem.FORMAT, manifestFile, 0, manifestFile + ": the export's key ("
                    + key.schema() + ") is not the key given (" + given.get().schema() + ")", null);
        }
        Path data = dir.resolve(StillpointLayout.DATA_FILE);
        ExportKey checked = key;
        Scan scan = items -> {
            FileDigest d = readLines(data, false, "SHA-256", checked, items);
            if (d.lines != count) {
                throw new BackupFailure(Problem.INTEGRITY, data, 0, data + " holds " + d.lines + " items; "
                        + manifestFile.getFileName() + " says " + count, null);
            }
            if (!HexFormat.of().formatHex(d.digest).equals(sha)) {
                throw new BackupFailure(Problem.INTEGRITY, data, 0, data + ": sha256 "
                        + HexFormat.of().formatHex(d.digest) + " is not the manifest's " + sha, null);
            }
        };
        scan.run(item -> { });
        Optional<String> arn = table.hasNonNull("TableArn") ? Optional.of(table.get("TableArn").asText()) : Optional.empty();
        return new CheckedExport(ExportFormat.STILLPOINT, dir, count, Optional.of(table), arn, key, scan);
    }

    // ---------------------------------------------------------------- DynamoDB's

    private static Optional<Path> findSummary(Path dir) {
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
                throw unreadable(aws, e);
            }
        }
        return Optional.empty();
    }

    private static CheckedExport checkDynamoDb(Path root, Path summaryFile, Optional<ExportKey> given) {
        Path exportDir = summaryFile.getParent();
        verifyChecksumFile(summaryFile, exportDir.resolve("manifest-summary.checksum"));
        JsonNode s = readJson(summaryFile);
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
        long total = requiredCount(s, "itemCount", summaryFile);
        Path filesManifest = resolve(root, exportDir, s.path("manifestFilesS3Key").asText(DynamoDbLayout.FILES),
                summaryFile, 0);
        verifyChecksumFile(filesManifest, exportDir.resolve("manifest-files.checksum"));
        List<DataFileEntry> entries = new ArrayList<>();
        List<String> lines = readAllLines(filesManifest);
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.isBlank()) {
                continue;
            }
            JsonNode e;
            try {
                e = JSON.readTree(text);
            } catch (JsonProcessingException ex) {
                throw new BackupFailure(Problem.FORMAT, filesManifest, i + 1, filesManifest + " line " + (i + 1)
                        + " is not JSON: " + ex.getOriginalMessage(), ex);
            }
            String dataKey = requiredText(e, "dataFileS3Key", filesManifest, i + 1);
            entries.add(new DataFileEntry(resolve(root, exportDir, dataKey, filesManifest, i + 1),
                    requiredCount(e, "itemCount", filesManifest, i + 1), requiredText(e, "md5Checksum", filesManifest, i + 1)));
        }
        Scan scan = items -> {
            long seen = 0;
            for (DataFileEntry entry : entries) {
                FileDigest d = readLines(entry.file, true, "MD5", key, items);
                String md5 = Base64.getEncoder().encodeToString(d.digest);
                if (!md5.equals(entry.md5)) {
                    throw new BackupFailure(Problem.INTEGRITY, entry.file, 0, entry.file + ": MD5 " + md5
                            + " is not manifest-files.json's md5Checksum " + entry.md5, null);
                }
                if (d.lines != entry.items) {
                    throw new BackupFailure(Problem.INTEGRITY, entry.file, 0, entry.file + " holds " + d.lines
                            + " items; manifest-files.json says " + entry.items, null);
                }
                seen += d.lines;
            }
            if (seen != total) {
                throw new BackupFailure(Problem.INTEGRITY, summaryFile, 0, "the data files hold " + seen + " items; "
                        + summaryFile + " says " + total, null);
            }
        };
        scan.run(item -> { });
        Optional<String> arn = s.hasNonNull("tableArn") ? Optional.of(s.get("tableArn").asText()) : Optional.empty();
        return new CheckedExport(ExportFormat.DYNAMODB, root, total, Optional.empty(), arn, key, scan);
    }

    private record DataFileEntry(Path file, long items, String md5) {
    }

    private static Path resolve(Path root, Path exportDir, String key, Path manifest, long line) {
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

    private static void verifyChecksumFile(Path file, Path checksum) {
        if (!Files.exists(checksum)) {
            return;
        }
        try {
            String expected = Files.readString(checksum, StandardCharsets.US_ASCII).trim();
            String actual = HexFormat.of().formatHex(TableExport.digest("MD5").digest(Files.readAllBytes(file)));
            if (!actual.equalsIgnoreCase(expected)) {
                throw new BackupFailure(Problem.INTEGRITY, file, 0, file + ": MD5 " + actual + " is not "
                        + checksum.getFileName() + "'s " + expected, null);
            }
        } catch (IOException e) {
            throw unreadable(checksum, e);
        }
    }

    // ---------------------------------------------------------------- lines

    private record FileDigest(long lines, byte[] digest) {
    }

    /**
     * Reads {@code file} (gunzipped when it starts with gzip's magic bytes), digesting its bytes as stored,
     * checking and decoding every line; {@code wrapped} lines are DynamoDB's {@code {"Item": ...}}.
     */
    private static FileDigest readLines(Path file, boolean wrapped, String algorithm, ExportKey key, Consumer<Item> items) {
        MessageDigest digest = TableExport.digest(algorithm);
        ItemCheck check = new ItemCheck(key.schema(), key.definitions());
        long line = 0;
        try (InputStream raw = new BufferedInputStream(new DigestInputStream(Files.newInputStream(file), digest), 1 << 16)) {
            raw.mark(2);
            int b1 = raw.read();
            int b2 = raw.read();
            raw.reset();
            boolean gzip = b1 == 0x1f && b2 == 0x8b;
            InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw;
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16);
            String text;
            while ((text = reader.readLine()) != null) {
                line++;
                if (text.isEmpty() && wrapped) {
                    line--; // a trailing blank line in a DynamoDB data file holds no item
                    continue;
                }
                String itemJson = wrapped ? unwrap(text, file, line) : text;
                items.accept(checked(itemJson, file, line, check));
            }
            raw.transferTo(java.io.OutputStream.nullOutputStream()); // anything after the gzip stream is digested too
        } catch (CharacterCodingException e) {
            throw new BackupFailure(Problem.ITEM, file, line + 1, file + " line " + (line + 1) + " is not UTF-8 text", e);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new BackupFailure(Problem.INTEGRITY, file, line + 1, file + ": the gzip stream is damaged or truncated"
                    + " (after line " + line + "): " + e.getMessage(), e);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        return new FileDigest(line, digest.digest());
    }

    private static Item checked(String itemJson, Path file, long line, ItemCheck check) {
        try {
            check.check(new LineItem(itemJson), line, "line " + line + " of " + file);
        } catch (ItemCheck.Failed e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + ": " + e.getMessage(), e);
        }
        try {
            return ItemJson.decode(itemJson);
        } catch (StorageException e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " is not an item: "
                    + e.getMessage(), e);
        }
    }

    /** The item text of a DynamoDB export line: exactly {@code {"Item": {...}}}, nothing else. */
    private static String unwrap(String text, Path file, long line) {
        try (JsonParser p = LINES.createParser(text)) {
            boolean ok = p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                    && "Item".equals(p.currentName()) && p.nextToken() == JsonToken.START_OBJECT;
            if (ok) {
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                if (p.nextToken() == JsonToken.END_OBJECT && p.nextToken() == null) {
                    return text.substring(start, end);
                }
            }
        } catch (IOException e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " is not JSON: "
                    + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()), e);
        }
        throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line
                + " is not an item line: expected exactly {\"Item\": {...}}", null);
    }

    /** A line as the item check takes it: text with no stored key beside it. */
    private record LineItem(String json) implements StoredItem {
        @Override
        public Item item() {
            return ItemJson.decode(json);
        }
    }

    // ---------------------------------------------------------------- manifests

    private static JsonNode readJson(Path file) {
        try {
            JsonNode n = JSON.readTree(file.toFile());
            if (n == null || !n.isObject()) {
                throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not a JSON object", null);
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    private static List<String> readAllLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    private static String requiredText(JsonNode n, String field, Path file) {
        return requiredText(n, field, file, 0);
    }

    private static String requiredText(JsonNode n, String field, Path file, long line) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new BackupFailure(Problem.FORMAT, file, line, file + (line > 0 ? " line " + line : "") + ": field "
                    + field + " is missing or not a string", null);
        }
        return v.asText();
    }

    private static long requiredCount(JsonNode n, String field, Path file) {
        return requiredCount(n, field, file, 0);
    }

    private static long requiredCount(JsonNode n, String field, Path file, long line) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToExactIntegral() || v.asLong() < 0) {
            throw new BackupFailure(Problem.FORMAT, file, line, file + (line > 0 ? " line " + line : "") + ": field "
                    + field + " is missing or not a count", null);
        }
        return v.asLong();
    }

    private static BackupFailure unreadable(Path file, IOException e) {
        return new BackupFailure(Problem.FORMAT, file, 0, "cannot read " + file + ": " + TableExport.reason(e), e);
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

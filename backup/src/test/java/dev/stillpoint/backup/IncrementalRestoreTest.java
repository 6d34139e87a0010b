package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.itemjson.ItemJson;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Restore applies an incremental export [I3] on a real SQLite file, in both layouts: full(A) restored into a
 * new table, then changes(A, B) applied, holds exactly the items of full(B); the table then stands at B. A
 * window that does not start where the table stands is refused by name, a tampered input by its checksum or
 * count, an image PutItem would refuse by its line [V2]; a tombstone of a key the table does not hold is a
 * no-op. DynamoDB's incremental layout follows the developer guide's "DynamoDB table export output format"
 * page, "Incremental export output":
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html
 */
class IncrementalRestoreTest {

    private static final String ACCOUNT = "000000000000";
    private static final ExportKey KEY = ExportReader.parseKey("pk:S,sk:N");

    @TempDir
    Path dir;

    private SqliteStorage open(ChangeLog log) {
        SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(dir.resolve("t.db")).withControlPlaneDelay(Duration.ZERO));
        storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "things").partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).changeLog(log).build());
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, "things", Duration.ofSeconds(30));
        return storage;
    }

    private static Item item(int sk, String v) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("pk", AttributeValue.s("a"));
        values.put("sk", AttributeValue.n(Integer.toString(sk)));
        values.put("v", AttributeValue.s(v));
        return Item.of(values);
    }

    private static RequestKey key(int sk) {
        return RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n(Integer.toString(sk)));
    }

    private ExportResult full(SqliteStorage storage, String table, String name, ExportFormat format) {
        return TableExport.to(dir.resolve(name)).format(format).run(storage, ACCOUNT, table);
    }

    private RestoreRequest restoreOf(String name, ExportFormat format) {
        RestoreRequest r = TableRestore.from(dir.resolve(name));
        return format == ExportFormat.DYNAMODB ? r.key(KEY) : r;
    }

    /** Item 1 put, then full(A) exported and restored as "copy": the copy stands at A. */
    private ExportResult copiedAtA(SqliteStorage storage, ExportFormat format) {
        storage.tables().putItem(ACCOUNT, "things", item(1, "x"));
        ExportResult a = full(storage, "things", "full-a", format);
        restoreOf("full-a", format).run(storage, ACCOUNT, "copy");
        return a;
    }

    /** A put, overwrites, deletes of keys held at A, a key come and gone, one deleted and put again. */
    private static void window(SqliteStorage storage) {
        storage.tables().putItem(ACCOUNT, "things", item(10, "new"));
        storage.tables().putItem(ACCOUNT, "things", item(1, "over"));
        storage.tables().putItem(ACCOUNT, "things", item(1, "over again"));
        storage.tables().deleteItem(ACCOUNT, "things", key(2));
        storage.tables().putItem(ACCOUNT, "things", item(11, "brief"));
        storage.tables().deleteItem(ACCOUNT, "things", key(11));
        storage.tables().deleteItem(ACCOUNT, "things", key(3));
        storage.tables().putItem(ACCOUNT, "things", item(3, "back"));
    }

    // [I3, I2] full(A) restored + changes(A, B) applied == full(B), item for item, in both layouts; the
    // table then records marker B, so a second window (B, C) applies on top of the first.
    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void i3_fullAPlusChangesAToBAppliedIsFullB(ExportFormat format) throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_AND_OLD_IMAGES)) {
            for (int i = 0; i < 5; i++) {
                storage.tables().putItem(ACCOUNT, "things", item(i, "a" + i));
            }
            ExportResult a = full(storage, "things", "full-a", format);
            TableRestore.Result restored = restoreOf("full-a", format).run(storage, ACCOUNT, "copy");
            assertThat(RestoredMarker.of(restored.table())).as("the full restore records A's marker")
                    .contains(a.info().marker());
            window(storage);
            ChangesExport.Result changes = TableExport.to(dir.resolve("ab")).format(format)
                    .runSince(storage, ACCOUNT, "things", a.info().marker());
            ExportResult b = full(storage, "things", "full-b", ExportFormat.STILLPOINT);

            List<Path> spoolsBefore = spools();
            ChangesApply.Result applied = TableRestore.from(dir.resolve("ab")).apply(storage, ACCOUNT, "copy");
            assertThat(spools()).as("the checked changes' temporary copy removed after the apply").isEqualTo(spoolsBefore);

            assertThat(items(full(storage, "copy", "copy-b", ExportFormat.STILLPOINT).dataFile()))
                    .as("full(A) + changes(A, B), applied through restore").isEqualTo(items(b.dataFile()));
            assertThat(applied.puts()).as("10, 1, 3 put").isEqualTo(3);
            assertThat(applied.tombstones()).as("2 deleted; 11 came and went").isEqualTo(1);
            assertThat(applied.absentTombstones()).isZero();
            assertThat(RestoredMarker.of(applied.table())).as("the table now stands at B").contains(b.info().marker());
            assertThat(applied.until()).isEqualTo(changes.changes().until().marker());

            storage.tables().deleteItem(ACCOUNT, "things", key(0));
            TableExport.to(dir.resolve("bc")).format(format).runSince(storage, ACCOUNT, "things", applied.until());
            TableRestore.from(dir.resolve("bc")).apply(storage, ACCOUNT, "copy");
            assertThat(items(full(storage, "copy", "copy-c", ExportFormat.STILLPOINT).dataFile()))
                    .as("a second window on top").isEqualTo(items(full(storage, "things", "full-c", ExportFormat.STILLPOINT).dataFile()));
        }
    }

    // [V2, I3] An image may carry a 65,535-byte attribute name, as PutItem takes it: the change file's reader
    // read names only to Jackson's default 50,000 characters (LongAttributeNamesTest has the full layouts).
    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void i3_anImageHoldingTheLongestNameDynamoDbTakesIsApplied(ExportFormat format) throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_AND_OLD_IMAGES)) {
            ExportResult a = copiedAtA(storage, format);
            Item named = item(2, "y").with("n".repeat(65_535), AttributeValue.s("v"));
            storage.tables().putItem(ACCOUNT, "things", named);
            TableExport.to(dir.resolve("ab")).format(format).runSince(storage, ACCOUNT, "things", a.info().marker());
            TableRestore.from(dir.resolve("ab")).apply(storage, ACCOUNT, "copy");
            assertThat(storage.tables().getItem(ACCOUNT, "copy", key(2))).contains(named);
        }
    }

    // [I3] a window that does not start where the table stands is refused by name, nothing written: one
    // starting later (B, C) on a table at A, and any window on a table that records no marker.
    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void i3_aWindowNotStartingAtTheTablesMarkerIsRefusedByName(ExportFormat format) throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_IMAGE)) {
            ExportResult a = copiedAtA(storage, format);
            storage.tables().putItem(ACCOUNT, "things", item(2, "y"));
            String markerB = full(storage, "things", "full-b", ExportFormat.STILLPOINT).info().marker();
            storage.tables().putItem(ACCOUNT, "things", item(3, "z"));
            TableExport.to(dir.resolve("bc")).format(format).runSince(storage, ACCOUNT, "things", markerB);
            Map<String, Item> before = items(full(storage, "copy", "copy-before", ExportFormat.STILLPOINT).dataFile());

            BackupFailure refused = catchThrowableOfType(
                    () -> TableRestore.from(dir.resolve("bc")).apply(storage, ACCOUNT, "copy"), BackupFailure.class);

            assertThat(refused).as("applying (B, C) to a table at A").isNotNull();
            assertThat(refused.problem()).isEqualTo(BackupFailure.Problem.MARKER);
            assertThat(refused.getMessage()).contains("table 'copy' stands at marker '" + a.info().marker() + "'")
                    .contains("starts at marker '" + markerB + "'");
            assertThat(items(full(storage, "copy", "copy-after", ExportFormat.STILLPOINT).dataFile()))
                    .as("nothing written").isEqualTo(before);

            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "plain").partitionKey("pk", ScalarType.S)
                    .sortKey("sk", ScalarType.N).build());
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, "plain", Duration.ofSeconds(30));
            BackupFailure none = catchThrowableOfType(
                    () -> TableRestore.from(dir.resolve("bc")).apply(storage, ACCOUNT, "plain"), BackupFailure.class);
            assertThat(none.problem()).isEqualTo(BackupFailure.Problem.MARKER);
            assertThat(none.getMessage()).contains("table 'plain' records no snapshot marker");
        }
    }

    // [I3, E3] a tampered incremental export is refused by its checksum before anything is written: our
    // changes.jsonl against the manifest's sha256, DynamoDB's gzipped data file against its MD5; and a gzip
    // data file whose count manifest-files.json states otherwise (the .checksum recomputed, as someone
    // editing it would) by its count.
    @Test
    void i3_aTamperedIncrementalExportIsRefusedAndNothingIsWritten() throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_AND_OLD_IMAGES)) {
            for (int i = 0; i < 3; i++) {
                storage.tables().putItem(ACCOUNT, "things", item(i, "a" + i));
            }
            ExportResult a = full(storage, "things", "full-a", ExportFormat.STILLPOINT);
            restoreOf("full-a", ExportFormat.STILLPOINT).run(storage, ACCOUNT, "copy");
            window(storage);
            ChangesExport.Result ours = TableExport.to(dir.resolve("ours")).runSince(storage, ACCOUNT, "things", a.info().marker());
            ChangesExport.Result ddb = TableExport.to(dir.resolve("ddb")).format(ExportFormat.DYNAMODB)
                    .runSince(storage, ACCOUNT, "things", a.info().marker());
            Map<String, Item> before = items(full(storage, "copy", "copy-before", ExportFormat.STILLPOINT).dataFile());

            String text = Files.readString(ours.dataFile()).replace("over again", "over AGAIN");
            Files.writeString(ours.dataFile(), text);
            List<Path> spoolsBefore = spools();
            BackupFailure sha = catchThrowableOfType(
                    () -> TableRestore.from(dir.resolve("ours")).apply(storage, ACCOUNT, "copy"), BackupFailure.class);
            assertThat(spools()).as("the temporary copy removed after a refusal").isEqualTo(spoolsBefore);
            assertThat(sha).as("a changed changes.jsonl").isNotNull();
            assertThat(sha.problem()).isEqualTo(BackupFailure.Problem.INTEGRITY);
            assertThat(sha.getMessage()).contains(ours.dataFile().toString()).contains("is not the manifest's");

            String listedOnce = Files.readString(dir.resolve("ddb").resolve(DynamoDbLayout.FILES));
            BackupFailure twice = appliedWithFilesManifest(storage, (listedOnce + listedOnce).getBytes(StandardCharsets.UTF_8));
            assertThat(twice).as("one data file listed twice").isNotNull();
            assertThat(twice.problem()).isEqualTo(BackupFailure.Problem.FORMAT);
            assertThat(twice.getMessage()).contains("line 2 names '").contains("the data file line 1 names");

            ObjectNode entry = (ObjectNode) ManifestJson.JSON.readTree(listedOnce);
            long lines = entry.get("itemCount").asLong();
            entry.put("itemCount", lines - 1);
            BackupFailure count = appliedWithFilesManifest(storage,
                    (ManifestJson.JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8));
            assertThat(count).as("a gzip data file's count that manifest-files.json states otherwise").isNotNull();
            assertThat(count.problem()).isEqualTo(BackupFailure.Problem.INTEGRITY);
            assertThat(count.getMessage()).contains("holds " + lines + " changes; manifest-files.json says " + (lines - 1));

            byte[] gz = Files.readAllBytes(ddb.dataFile());
            gz[gz.length / 2] ^= 0x01;
            Files.write(ddb.dataFile(), gz);
            BackupFailure md5 = catchThrowableOfType(
                    () -> TableRestore.from(dir.resolve("ddb")).apply(storage, ACCOUNT, "copy"), BackupFailure.class);
            assertThat(md5).as("a changed gzip data file").isNotNull();
            assertThat(md5.problem()).isEqualTo(BackupFailure.Problem.INTEGRITY);

            assertThat(items(full(storage, "copy", "copy-after", ExportFormat.STILLPOINT).dataFile()))
                    .as("nothing written").isEqualTo(before);
        }
    }

    /**
     * Applies dir/ddb to table copy with its manifest-files.json replaced by {@code manifest} (its checksum file
     * recomputed, as someone editing it would); the refusal, or null when it applied.
     */
    private BackupFailure appliedWithFilesManifest(SqliteStorage storage, byte[] manifest) throws Exception {
        Files.write(dir.resolve("ddb").resolve(DynamoDbLayout.FILES), manifest);
        Files.writeString(dir.resolve("ddb/manifest-files.checksum"),
                HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(manifest)));
        return catchThrowableOfType(
                () -> TableRestore.from(dir.resolve("ddb")).apply(storage, ACCOUNT, "copy"), BackupFailure.class);
    }

    // [I3, V2] an image PutItem would refuse (an empty string set) is refused naming its line, though the
    // file's digest was made to match: the same rules as PutItem, at this gate too.
    @Test
    void v2_anImagePutItemWouldRefuseIsRefusedNamingTheLine() throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_IMAGE)) {
            storage.tables().putItem(ACCOUNT, "things", item(1, "x"));
            ExportResult a = full(storage, "things", "full-a", ExportFormat.STILLPOINT);
            restoreOf("full-a", ExportFormat.STILLPOINT).run(storage, ACCOUNT, "copy");
            storage.tables().putItem(ACCOUNT, "things", item(2, "y"));
            storage.tables().putItem(ACCOUNT, "things", item(3, "z"));
            ChangesExport.Result r = TableExport.to(dir.resolve("ab")).runSince(storage, ACCOUNT, "things", a.info().marker());
            String text = Files.readString(r.dataFile()).replace("{\"S\":\"z\"}", "{\"SS\":[]}");
            Files.writeString(r.dataFile(), text);
            ObjectNode m = (ObjectNode) ManifestJson.readJson(r.manifestFile());
            m.put("sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8))));
            Files.writeString(r.manifestFile(), ManifestJson.JSON.writeValueAsString(m));

            BackupFailure refused = catchThrowableOfType(
                    () -> TableRestore.from(dir.resolve("ab")).apply(storage, ACCOUNT, "copy"), BackupFailure.class);

            assertThat(refused.problem()).isEqualTo(BackupFailure.Problem.ITEM);
            assertThat(refused.line()).isEqualTo(2);
            assertThat(refused.getMessage()).contains("line 2").contains("PutItem would refuse");
            assertThat(storage.tables().getItem(ACCOUNT, "copy", key(2))).as("nothing written").isEmpty();
        }
    }

    // [I3] decided: a tombstone of a key the table does not hold is a no-op, counted, not refused. A
    // NEW_IMAGE log keeps no old image, so a key put and deleted inside the window yields a tombstone though
    // it was absent at A; refusing it would refuse a sound window. The result is still full(B).
    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void i3_aTombstoneOfAKeyTheTableDoesNotHoldIsANoOp(ExportFormat format) throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_IMAGE)) {
            ExportResult a = copiedAtA(storage, format);
            storage.tables().putItem(ACCOUNT, "things", item(7, "brief"));
            storage.tables().deleteItem(ACCOUNT, "things", key(7));
            ChangesExport.Result r = TableExport.to(dir.resolve("ab")).format(format)
                    .runSince(storage, ACCOUNT, "things", a.info().marker());
            assertThat(r.tombstones()).as("the NEW_IMAGE log's tombstone of key 7").isEqualTo(1);

            ChangesApply.Result applied = TableRestore.from(dir.resolve("ab")).apply(storage, ACCOUNT, "copy");

            assertThat(applied.absentTombstones()).isEqualTo(1);
            assertThat(items(full(storage, "copy", "copy-b", ExportFormat.STILLPOINT).dataFile()))
                    .isEqualTo(items(full(storage, "things", "full-b", ExportFormat.STILLPOINT).dataFile()));
        }
    }

    // [I3] DynamoDB's incremental layout as the developer guide documents it
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html): the summary's
    // version 2023-08-01, exportType INCREMENTAL_EXPORT, outputView, exportToTime, our markers; gzipped lines
    // {"Metadata":{"WriteTimestampMicros":{"N":..}},"Keys":..,"NewImage":..,"OldImage":..}, NewImage absent for
    // a delete; OldImage in NEW_AND_OLD_IMAGES only, never when NEW_IMAGE is asked of a log that keeps old images.
    @Test
    void i3_dynamoDbsIncrementalLayoutAndTheViewAsked() throws Exception {
        try (SqliteStorage storage = open(ChangeLog.NEW_AND_OLD_IMAGES)) {
            storage.tables().putItem(ACCOUNT, "things", item(1, "old"));
            storage.tables().putItem(ACCOUNT, "things", item(2, "gone"));
            String a = full(storage, "things", "full-a", ExportFormat.STILLPOINT).info().marker();
            storage.tables().putItem(ACCOUNT, "things", item(1, "new"));
            storage.tables().deleteItem(ACCOUNT, "things", key(2));

            ChangesExport.Result both = TableExport.to(dir.resolve("both")).format(ExportFormat.DYNAMODB)
                    .runSince(storage, ACCOUNT, "things", a);
            ChangesExport.Result news = TableExport.to(dir.resolve("new")).format(ExportFormat.DYNAMODB)
                    .runSince(storage, ACCOUNT, "things", a, Optional.of(ChangeLog.NEW_IMAGE));
            ChangesExport.Result oursNew = TableExport.to(dir.resolve("ours-new"))
                    .runSince(storage, ACCOUNT, "things", a, Optional.of(ChangeLog.NEW_IMAGE));

            JsonNode s = ManifestJson.readJson(dir.resolve("both").resolve(DynamoDbLayout.SUMMARY));
            assertThat(s.get("version").asText()).isEqualTo("2023-08-01");
            assertThat(s.get("exportType").asText()).isEqualTo("INCREMENTAL_EXPORT");
            assertThat(s.get("outputFormat").asText()).isEqualTo("DYNAMODB_JSON");
            assertThat(s.get("outputView").asText()).isEqualTo("NEW_AND_OLD_IMAGES");
            assertThat(s.get("itemCount").asLong()).isEqualTo(2);
            assertThat(s.has("exportFromTime") && s.has("exportToTime")).isTrue();
            assertThat(s.get("stillpointWindow").get("since").get("marker").asText()).isEqualTo(a);
            assertThat(s.get("stillpointWindow").get("until").get("marker").asText())
                    .isEqualTo(both.changes().until().marker());
            JsonNode files = ManifestJson.JSON.readTree(Files.readString(dir.resolve("both").resolve(DynamoDbLayout.FILES)));
            assertThat(files.get("md5Checksum").asText()).isEqualTo(java.util.Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("MD5").digest(Files.readAllBytes(both.dataFile()))));

            List<JsonNode> lines = gunzipped(both.dataFile());
            assertThat(lines).hasSize(2);
            // ExportToTime is "the exclusive end range" (API_IncrementalExportSpecification): every line's write
            // timestamp lies before it, or a reader keeping a window's lines by time would drop them all.
            long endMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(s.get("exportToTime").asText()));
            for (JsonNode line : lines) {
                assertThat(line.get("Metadata").get("WriteTimestampMicros").get("N").asText()).matches("[0-9]{16}");
                assertThat(line.get("Metadata").get("WriteTimestampMicros").get("N").asLong())
                        .as("[I3] before the exclusive exportToTime").isLessThan(endMicros);
                assertThat(line.has("Keys")).isTrue();
                assertThat(line.has("OldImage")).as("both keys had an item at A: " + line).isTrue();
            }
            assertThat(lines.get(0).get("NewImage").get("v").get("S").asText()).isEqualTo("new");
            assertThat(lines.get(1).has("NewImage")).as("a delete has no NewImage").isFalse();

            assertThat(ManifestJson.readJson(dir.resolve("new").resolve(DynamoDbLayout.SUMMARY)).get("outputView").asText())
                    .isEqualTo("NEW_IMAGE");
            for (JsonNode line : gunzipped(news.dataFile())) {
                assertThat(line.has("OldImage")).as("NEW_IMAGE asked: " + line).isFalse();
            }
            for (String line : Files.readAllLines(oursNew.dataFile())) {
                assertThat(line).as("NEW_IMAGE asked, our layout").doesNotContain("OldImage");
            }
        }
    }

    private static List<JsonNode> gunzipped(Path file) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            in.transferTo(out);
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(ManifestJson.JSON.readTree(line));
        }
        return lines;
    }

    private static Map<String, Item> items(Path jsonl) throws Exception {
        Map<String, Item> out = new HashMap<>();
        for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
            Item item = ItemJson.decode(line);
            out.put(ItemJson.encode(Item.of(Map.of("pk", item.get("pk"), "sk", item.get("sk")))), item);
        }
        return out;
    }

    /** The checked changes' temporary copies in this JVM's temporary directory (the module's target/, see its pom). */
    private static List<Path> spools() throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("stillpoint-changes-")).sorted().toList();
        }
    }
}

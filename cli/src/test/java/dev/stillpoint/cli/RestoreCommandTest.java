package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.backup.TableExport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * {@code restore} [E3-E5]: into a new table on SQLite and PostgreSQL from either layout, the restored
 * table ACTIVE with its RestoreSummary and the same items; each refusal with its exit code and nothing
 * created, into SQLite and into PostgreSQL; a load that fails mid-way removes the table.
 */
class RestoreCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path exported(Path dir, String... format) {
        Path db = dir.resolve("src.db");
        ExportBackendsTest.load("--sqlite", db.toString());
        Path out = dir.resolve("export");
        Cli.Run run = Cli.run(ExportBackendsTest.concat(List.of("export", "--sqlite", db.toString(), "--table", "things",
                "--out", out.toString()), format));
        assertThat(run.code()).as(run.err()).isZero();
        return out;
    }

    private static List<String> tables(String... backend) {
        Cli.Run run = Cli.run(ExportBackendsTest.concat(List.of("list-tables"), backend));
        assertThat(run.code()).as(run.err()).isZero();
        return run.out().lines().toList();
    }

    @Test
    void restoreIntoSqliteAndPostgresGivesTheSameItemsAndARestoreSummary() throws Exception {
        Path dir = Cli.scratch("restore");
        Path export = exported(dir);
        String sourceArn = JSON.readTree(export.resolve("manifest.json").toFile()).path("table").path("TableArn").asText();
        java.time.Instant exportedAt = java.time.Instant.parse(JSON.readTree(export.resolve("manifest.json").toFile())
                .path("snapshot").path("openedAt").asText());
        byte[] items = Files.readAllBytes(export.resolve("items.jsonl"));

        Path target = dir.resolve("target.db"); // a new file: restore creates it
        String pg = CliPg.newDatabase("restore", "pw-" + "hidden");
        for (String[] backend : List.of(new String[] {"--sqlite", target.toString()}, new String[] {"--postgres", pg})) {
            Cli.Run run = Cli.run(ExportBackendsTest.concat(List.of("restore", "--from", export.toString()), backend,
                    "--table", "copy", "--batch", "2"));
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).contains("restored 5 items into table 'copy' (ACTIVE)").contains("items/s")
                    .doesNotContain("hidden");

            Cli.Run described = Cli.run(ExportBackendsTest.concat(List.of("describe"), backend, "--table", "copy"));
            JsonNode d = JSON.readTree(described.out());
            assertThat(d.path("TableStatus").asText()).isEqualTo("ACTIVE");
            assertThat(d.path("RestoreSummary").path("SourceTableArn").asText()).isEqualTo(sourceArn);
            assertThat(d.path("RestoreSummary").path("RestoreInProgress").asBoolean()).isFalse();
            // "Point in time or source backup time" (DynamoDB API reference, RestoreSummary:
            // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html): the export's
            // instant (the catalog keeps milliseconds), not when the restore ran.
            assertThat(java.time.Instant.parse(d.path("RestoreSummary").path("RestoreDateTime").asText()))
                    .as("RestoreDateTime, %s", backend[0]).isEqualTo(exportedAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
            // Issue 29: the restored table's counts at once, not 0 until the next statistics pass.
            assertThat(d.path("ItemCount").asLong()).as("ItemCount after restoring 5 items, %s", backend[0]).isEqualTo(5);
            assertThat(d.path("TableSizeBytes").asLong()).as("TableSizeBytes, %s", backend[0]).isPositive();
            assertThat(d.path("GlobalSecondaryIndexes").get(0).path("IndexName").asText()).isEqualTo("by-cat");

            Path again = dir.resolve("again-" + backend[0].substring(2));
            assertThat(Cli.run(ExportBackendsTest.concat(List.of("export"), backend, "--table", "copy", "--out",
                    again.toString())).code()).isZero();
            assertThat(Files.readAllBytes(again.resolve("items.jsonl"))).as(backend[0]).isEqualTo(items);
        }
    }

    @Test
    void restoreIntoMongoDbWhenAReplicaSetIsGiven() throws Exception {
        String uri = System.getenv("STILLPOINT_TEST_MONGODB_URI");
        org.junit.jupiter.api.Assumptions.assumeTrue(uri != null && !uri.isBlank(),
                "STILLPOINT_TEST_MONGODB_URI names no MongoDB replica set");
        Path dir = Cli.scratch("restore-mongo");
        Path export = exported(dir);
        String name = "copy_" + Long.toHexString(System.nanoTime());
        Cli.Run run = Cli.run("restore", "--from", export.toString(), "--mongodb", uri, "--table", name);
        assertThat(run.code()).as(run.err()).isZero();
        Path again = dir.resolve("again");
        assertThat(Cli.run("export", "--mongodb", uri, "--table", name, "--out", again.toString()).code()).isZero();
        assertThat(Files.readAllLines(again.resolve("items.jsonl")).stream().map(dev.stillpoint.itemjson.ItemJson::decode)
                .toList()).containsExactlyInAnyOrderElementsOf(Files.readAllLines(export.resolve("items.jsonl")).stream()
                .map(dev.stillpoint.itemjson.ItemJson::decode).toList());
    }

    @Test
    void aDynamoDbExportRestoresWithTheKeyGivenAndIsRefusedWithout() throws Exception {
        Path dir = Cli.scratch("restore-ddb");
        Path export = exported(dir, "--format", "dynamodb");
        Path target = dir.resolve("target.db");

        Cli.Run noKey = Cli.run("restore", "--from", export.toString(), "--sqlite", target.toString(), "--table", "copy");
        assertThat(noKey.code()).as(noKey.err()).isEqualTo(ExitCodes.INPUT_FORMAT).isEqualTo(10);
        assertThat(noKey.err()).contains("give the key");
        assertThat(target).as("nothing created, not even the file").doesNotExist();

        Cli.Run run = Cli.run("restore", "--from", export.toString(), "--sqlite", target.toString(), "--table", "copy",
                "--key", "pk:S,sk:N");
        assertThat(run.code()).as(run.err()).isZero();
        Path summary = export.resolve("manifest-summary.json");
        String exportTime = JSON.readTree(Files.readString(summary)).get("exportTime").asText();
        assertThat(run.out()).contains("restored to " + java.time.Instant.parse(exportTime).truncatedTo(java.time.temporal.ChronoUnit.MILLIS) + " (the export's time)");
        Path again = dir.resolve("again");
        assertThat(Cli.run("export", "--sqlite", target.toString(), "--table", "copy", "--out", again.toString()).code()).isZero();
        assertThat(Files.readAllLines(again.resolve("items.jsonl"))).hasSize(5);

        // An export that does not say when it was read: the summary's time is the restore's own, and says so.
        ObjectNode untimed = (ObjectNode) JSON.readTree(Files.readString(summary));
        untimed.remove("exportTime");
        Files.writeString(summary, untimed.toString());
        Files.delete(export.resolve("manifest-summary.checksum"));
        Cli.Run timeless = Cli.run("restore", "--from", export.toString(), "--sqlite", target.toString(), "--table",
                "copy2", "--key", "pk:S,sk:N");
        assertThat(timeless.code()).as(timeless.err()).isZero();
        assertThat(timeless.out()).contains("(the restore's own: the export does not say when it was read)")
                .doesNotContain("the export's time");
    }

    @Test
    void everyRefusalHasItsExitCodeAndCreatesNothing() throws Exception {
        Path dir = Cli.scratch("restore-refusals");
        Path ddb = exported(dir, "--format", "dynamodb");
        Path target = dir.resolve("target.db");
        assertThat(Cli.run("create-table", "--sqlite", target.toString(), "--table", "taken", "--key", "pk:S").code()).isZero();
        String[] into = {"--sqlite", target.toString()};

        inputRefusals(ddb, into);
        // an existing name, on a sound input (inputRefusals left it sound)
        Cli.Run taken = Cli.run("restore", "--from", ddb.toString(), "--sqlite", target.toString(), "--table", "taken",
                "--key", "pk:S,sk:N");
        assertThat(taken.code()).as(taken.err()).isEqualTo(ExitCodes.TABLE_EXISTS);
        assertThat(taken.err()).contains("'taken' already exists").contains("nothing created");
        // an unwritable target: a file that is not a database
        Path notDb = dir.resolve("not.db");
        Files.writeString(notDb, "not a database");
        Cli.Run unwritable = Cli.run("restore", "--from", ddb.toString(), "--sqlite", notDb.toString(), "--table", "copy",
                "--key", "pk:S,sk:N");
        assertThat(unwritable.code()).as(unwritable.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(Files.readString(notDb)).isEqualTo("not a database");

        assertThat(tables(into)).containsExactly("taken");
    }

    @Test
    void everyRefusalIntoPostgresHasItsExitCodeAndCreatesNothing() throws Exception {
        Path dir = Cli.scratch("restore-refusals-pg");
        Path ddb = exported(dir, "--format", "dynamodb");
        String pg = CliPg.newDatabase("refusals", "pw-" + "hidden");
        String[] into = {"--postgres", pg};
        assertThat(Cli.run("create-table", "--postgres", pg, "--table", "taken", "--key", "pk:S").code()).isZero();
        long relations = dataRelations(pg);

        inputRefusals(ddb, into);
        Cli.Run taken = Cli.run("restore", "--from", ddb.toString(), "--postgres", pg, "--table", "taken",
                "--key", "pk:S,sk:N");
        assertThat(taken.code()).as(taken.err()).isEqualTo(ExitCodes.TABLE_EXISTS);
        // an unwritable target: a role that may only read
        String reader = "reader_" + Long.toHexString(System.nanoTime());
        try (Connection c = DriverManager.getConnection(pg); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + reader + " LOGIN");
            s.execute("GRANT USAGE ON SCHEMA public TO " + reader);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + reader);
        }
        Cli.Run unwritable = Cli.run("restore", "--from", ddb.toString(), "--postgres",
                pg.replace("user=postgres", "user=" + reader), "--table", "copy", "--key", "pk:S,sk:N");
        assertThat(unwritable.code()).as(unwritable.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(unwritable.err()).contains("permission denied").doesNotContain("hidden");

        assertThat(tables(into)).containsExactly("taken");
        assertThat(dataRelations(pg)).as("no data relation created").isEqualTo(relations);
    }

    private static long dataRelations(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_class WHERE relname LIKE 'd\\_%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // [V2] Line 5 keeps a sound table key but gives the GSI key 'cat' a number. The reader used to pass it (it
    // checked the table's key only) and the load refused it [R3] after four items were in (exit 14); the check
    // now applies PutItem's rules, indexes included, and refuses it before anything is created. A load that
    // fails part-way still removes its table: RestoreCheckRulesTest (backup) changes a file after the check.
    @Test
    void aGsiKeyOfTheWrongTypeIsRefusedByTheCheckBeforeTheTableIsCreated() throws Exception {
        Path dir = Cli.scratch("restore-midway");
        Path export = exported(dir);
        Path items = export.resolve("items.jsonl");
        List<String> lines = Files.readAllLines(items);
        lines.set(4, lines.get(4).replaceFirst("^\\{", "{\"cat\":{\"N\":\"1\"},"));
        Files.write(items, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        ObjectNode manifest = (ObjectNode) JSON.readTree(export.resolve("manifest.json").toFile());
        manifest.put("sha256", HexFormat.of().formatHex(TableExport.sha256().digest(Files.readAllBytes(items))));
        manifest.put("bytes", Files.size(items));
        Files.writeString(export.resolve("manifest.json"), manifest.toString());

        Path target = dir.resolve("target.db");
        Cli.Run run = Cli.run("restore", "--from", export.toString(), "--sqlite", target.toString(), "--table", "copy",
                "--batch", "1");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.INPUT_ITEM).isEqualTo(12);
        assertThat(run.err()).contains("items.jsonl line 5").contains("'cat'").contains("by-cat");
        assertThat(target).as("nothing created, not even the database file").doesNotExist();
    }

    /**
     * Every refusal of a damaged input into {@code into}, each with its exit code [E3]: wrong checksum,
     * truncated gzip, count mismatch, a line that is not an item, a key of the wrong type. Leaves the
     * export sound again.
     */
    private static void inputRefusals(Path ddb, String[] into) throws Exception {
        JsonNode fileLine = JSON.readTree(Files.readAllLines(ddb.resolve("manifest-files.json")).get(0));
        Path data = ddb.resolve(fileLine.path("dataFileS3Key").asText());
        byte[] good = Files.readAllBytes(data);
        List<String> lines = new String(gunzip(good), StandardCharsets.UTF_8).lines().toList();

        // wrong checksum: another file's bytes under the same name
        Files.write(data, gzip(String.join("\n", lines.subList(0, 4)) + "\n" + lines.get(3) + "\n"));
        expect(ddb, into, ExitCodes.INPUT_INTEGRITY, "MD5");
        // truncated gzip, its MD5 matching (the manifest rewritten for the cut bytes)
        byte[] cut = Arrays.copyOf(good, good.length - 10);
        rewrite(ddb, data, cut, lines.size());
        expect(ddb, into, ExitCodes.INPUT_INTEGRITY, "damaged or truncated");
        // count mismatch
        rewrite(ddb, data, good, lines.size() + 1);
        expect(ddb, into, ExitCodes.INPUT_INTEGRITY, "holds 5 items");
        // a line that is not an item (line 3)
        rewrite(ddb, data, gzip(lines.get(0) + "\n" + lines.get(1) + "\n{\"Item\":[1]}\n" + lines.get(3) + "\n"
                + lines.get(4) + "\n"), 5);
        expect(ddb, into, ExitCodes.INPUT_ITEM, "line 3");
        // a key of the wrong type (line 2)
        rewrite(ddb, data, gzip(lines.get(0) + "\n" + lines.get(1).replace("\"sk\":{\"N\":", "\"sk\":{\"S\":") + "\n"
                + String.join("\n", lines.subList(2, 5)) + "\n"), 5);
        expect(ddb, into, ExitCodes.INPUT_ITEM, "line 2");
        rewrite(ddb, data, good, 5);
    }

    private static void expect(Path export, String[] into, int code, String text) {
        Cli.Run run = Cli.run(ExportBackendsTest.concat(List.of("restore", "--from", export.toString()), into,
                "--table", "copy", "--key", "pk:S,sk:N"));
        assertThat(run.code()).as(run.err()).isEqualTo(code);
        assertThat(run.err()).contains(text);
    }

    /** Puts {@code bytes} in {@code data} and rewrites manifest-files.json (and its checksum) to match, with {@code count}. */
    private static void rewrite(Path export, Path data, byte[] bytes, long count) throws Exception {
        Files.write(data, bytes);
        byte[] md5 = MessageDigest.getInstance("MD5").digest(bytes);
        ObjectNode line = (ObjectNode) JSON.readTree(Files.readAllLines(export.resolve("manifest-files.json")).get(0));
        line.put("itemCount", count).put("md5Checksum", Base64.getEncoder().encodeToString(md5))
                .put("etag", HexFormat.of().formatHex(md5));
        byte[] files = (line + "\n").getBytes(StandardCharsets.UTF_8);
        Files.write(export.resolve("manifest-files.json"), files);
        Files.writeString(export.resolve("manifest-files.checksum"),
                HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(files)));
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] bytes) throws Exception {
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The round trip of issue 31 through the real commands on a SQLite file [I3]: {@code export} at A,
 * {@code restore} into a new table, writes, {@code export --since A} (our layout, or DynamoDB's incremental
 * one with {@code --format dynamodb}), {@code restore --from} the incremental export onto the restored table,
 * and {@code export} of it: the items of the full export at B, item for item. The same window applied again
 * (the table now at B) is refused with exit 16, naming both markers. DynamoDB's layouts as the developer
 * guide documents them: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html
 */
class RestoreIncrementalCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void ok(Cli.Run run) {
        assertThat(run.code()).as(run.err()).isZero();
    }

    /**
     * Table 'things' (a NEW_IMAGE log) holding item a, exported at A into {@code dir/a} and restored as 'copy'.
     *
     * @return marker A
     */
    private static String restoredAtA(Path db, Path dir) throws Exception {
        String sqlite = db.toString();
        ok(Cli.run("create-table", "--sqlite", sqlite, "--table", "things", "--key", "pk:S", "--change-log", "NEW_IMAGE"));
        put(db, "a", "1");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("a").toString()));
        String markerA = JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();
        ok(Cli.run("restore", "--sqlite", sqlite, "--from", dir.resolve("a").toString(), "--table", "copy"));
        return markerA;
    }

    private static void put(Path db, String pk, String v) {
        ok(Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item",
                "{\"pk\":{\"S\":\"" + pk + "\"},\"v\":{\"S\":\"" + v + "\"}}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"stillpoint", "dynamodb"})
    void i3_fullARestoredPlusExportSinceAAppliedIsFullB(String format) throws Exception {
        Path dir = Cli.scratch("restore-incremental-" + format);
        Path db = dir.resolve("t.db");
        String sqlite = db.toString();
        ok(Cli.run("create-table", "--sqlite", sqlite, "--table", "things", "--key", "pk:S",
                "--change-log", "NEW_AND_OLD_IMAGES"));
        put(db, "a", "1");
        put(db, "b", "1");
        put(db, "c", "1");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("a").toString(),
                "--format", format));
        String markerA = format.equals("dynamodb")
                ? JSON.readTree(dir.resolve("a/manifest-summary.json").toFile()).path("stillpointSnapshot").path("marker").asText()
                : JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();
        ok(Cli.run("restore", "--sqlite", sqlite, "--from", dir.resolve("a").toString(), "--table", "copy",
                "--key", "pk:S"));

        put(db, "a", "2");
        put(db, "a", "3");
        put(db, "d", "1");
        ok(Cli.run("delete-item", "--sqlite", sqlite, "--table", "things", "--key-json", "{\"pk\":{\"S\":\"b\"}}"));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("ab").toString(),
                "--since", markerA, "--format", format));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("b").toString()));

        // Found from outside: a full restore's options were taken and ignored, and a --key of another type than
        // the table's was applied without a word. Each is refused now, before anything is written (the apply
        // below would find the table moved on otherwise).
        String[] apply = {"restore", "--sqlite", sqlite, "--from", dir.resolve("ab").toString(), "--table", "copy"};
        for (List<String> option : List.of(List.of("-j", "4"), List.of("--batch", "7"), List.of("--duplicates", "last-wins"))) {
            Cli.Run unused = Cli.run(Stream.concat(Stream.of(apply), option.stream()).toArray(String[]::new));
            assertThat(unused.code()).as(unused.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(unused.err()).contains(option.get(0).equals("-j") ? "--jobs" : option.get(0))
                    .contains("of a full restore").contains("nothing read or written");
        }
        Cli.Run otherKey = Cli.run(Stream.concat(Stream.of(apply), Stream.of("--key", "pk:N")).toArray(String[]::new));
        assertThat(otherKey.code()).as(otherKey.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(otherKey.err()).contains("table 'copy' has the key pk:S, not the key given with --key (pk:N)");

        Cli.Run applied = Cli.run(Stream.concat(Stream.of(apply), Stream.of("--key", "pk:S")).toArray(String[]::new));
        ok(applied);
        assertThat(applied.out()).contains("applied 3 changes (2 puts, 1 deletes, 0 of keys not held) to table 'copy'");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "copy", "--out", dir.resolve("copy-b").toString()));
        assertThat(items(dir.resolve("copy-b/items.jsonl"))).as("full(A) restored + changes(A, B) applied")
                .isEqualTo(items(dir.resolve("b/items.jsonl")));

        Cli.Run again = Cli.run("restore", "--sqlite", sqlite, "--from", dir.resolve("ab").toString(), "--table", "copy");
        assertThat(again.code()).as(again.err()).isEqualTo(ExitCodes.INPUT_MARKER);
        assertThat(again.err()).contains("table 'copy' stands at marker '").contains("starts at marker '" + markerA + "'");
    }

    // [I3, E3] through the commands: a tampered incremental export is refused with exit 11 and nothing written;
    // the intact one applies, its tombstone of a key the restored table never held a no-op (a NEW_IMAGE log
    // gives one for a key put and deleted inside the window), and the table equals full(B).
    @ParameterizedTest
    @ValueSource(strings = {"stillpoint", "dynamodb"})
    void i3_aTamperedIncrementalIsRefusedAndAnAbsentKeysDeleteIsANoOp(String format) throws Exception {
        Path dir = Cli.scratch("restore-incremental-tampered-" + format);
        Path db = dir.resolve("t.db");
        String sqlite = db.toString();
        String markerA = restoredAtA(db, dir);
        put(db, "a", "2");
        put(db, "x", "brief");
        ok(Cli.run("delete-item", "--sqlite", sqlite, "--table", "things", "--key-json", "{\"pk\":{\"S\":\"x\"}}"));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("ab").toString(),
                "--since", markerA, "--format", format));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("b").toString()));

        Path tampered = dir.resolve("ab-tampered");
        copy(dir.resolve("ab"), tampered);
        Path data;
        try (var files = Files.walk(tampered)) {
            data = files.filter(f -> f.getFileName().toString().equals("changes.jsonl")
                    || f.getFileName().toString().endsWith(".json.gz")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(data);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(data, bytes);
        Cli.Run refused = Cli.run("restore", "--sqlite", sqlite, "--from", tampered.toString(), "--table", "copy");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY);
        assertThat(refused.err()).contains(data.getFileName().toString());
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "copy", "--out", dir.resolve("copy-refused").toString()));
        assertThat(items(dir.resolve("copy-refused/items.jsonl"))).as("nothing written")
                .isEqualTo(items(dir.resolve("a/items.jsonl")));

        Cli.Run applied = Cli.run("restore", "--sqlite", sqlite, "--from", dir.resolve("ab").toString(), "--table", "copy");
        ok(applied);
        assertThat(applied.out()).contains("(1 puts, 1 deletes, 1 of keys not held)");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "copy", "--out", dir.resolve("copy-b").toString()));
        assertThat(items(dir.resolve("copy-b/items.jsonl"))).isEqualTo(items(dir.resolve("b/items.jsonl")));
    }

    private static void copy(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    // [I3] --view is the images of an incremental export: without --since a usage error; NEW_AND_OLD_IMAGES of
    // a log that keeps no old images refused naming both, nothing written.
    @org.junit.jupiter.api.Test
    void i3_theViewIsAnIncrementalExportsAndOnlyOneTheLogCanGive() throws Exception {
        Path dir = Cli.scratch("export-view");
        String sqlite = dir.resolve("t.db").toString();
        ok(Cli.run("create-table", "--sqlite", sqlite, "--table", "things", "--key", "pk:S", "--change-log", "NEW_IMAGE"));
        put(dir.resolve("t.db"), "a", "1");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("a").toString()));
        String marker = JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();

        Cli.Run noSince = Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("x").toString(),
                "--view", "NEW_IMAGE");
        assertThat(noSince.code()).as(noSince.err()).isEqualTo(ExitCodes.USAGE);

        Cli.Run both = Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("y").toString(),
                "--since", marker, "--view", "NEW_AND_OLD_IMAGES");
        assertThat(both.code()).as(both.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(both.err()).contains("export view NEW_AND_OLD_IMAGES of table 'things'").contains("(NEW_IMAGE)");
        assertThat(Files.exists(dir.resolve("y/manifest.json"))).isFalse();
    }

    private static Map<String, JsonNode> items(Path jsonl) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
            JsonNode item = JSON.readTree(line);
            out.put(item.get("pk").toString(), item);
        }
        return out;
    }

    // [I3] An apply that fails part-way says how far it got and that the same export completes it. Found from
    // outside: an apply onto a SQLite file on a full disk ended "deleting an item of table 'chg': SQLITE_FULL",
    // nothing more. Here a trigger the test puts on the restored table's base relation refuses one change.
    @org.junit.jupiter.api.Test
    void i3_anApplyStoppedPartWaySaysHowFarAndTheSameExportCompletesIt() throws Exception {
        Path dir = Cli.scratch("restore-incremental-stopped");
        Path db = dir.resolve("t.db");
        String sqlite = db.toString();
        String markerA = restoredAtA(db, dir);
        put(db, "b", "1");
        put(db, "c", "refused-once");
        put(db, "d", "1");
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("ab").toString(),
                "--since", markerA));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "things", "--out", dir.resolve("b").toString()));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
             java.sql.Statement s = c.createStatement()) {
            String relation;
            try (java.sql.ResultSet r = s.executeQuery("SELECT relation_name FROM sp_tables WHERE table_name = 'copy'")) {
                assertThat(r.next()).as("the restored table's row").isTrue();
                relation = r.getString(1);
            }
            s.execute("CREATE TRIGGER refuse_once BEFORE INSERT ON \"" + relation + "\" WHEN NEW.item LIKE"
                    + " '%refused-once%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
        }

        String[] apply = {"restore", "--sqlite", sqlite, "--from", dir.resolve("ab").toString(), "--table", "copy"};
        Cli.Run stopped = Cli.run(apply);
        assertThat(stopped.code()).as(stopped.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(stopped.err()).containsPattern("to table 'copy' stopped after [0-2] of 3 changes: ")
                .contains("refused by the test", "still stands at marker '" + markerA + "'",
                        "applying the same export again completes it");

        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
             java.sql.Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER refuse_once");
        }
        ok(Cli.run(apply));
        ok(Cli.run("export", "--sqlite", sqlite, "--table", "copy", "--out", dir.resolve("copy-b").toString()));
        assertThat(items(dir.resolve("copy-b/items.jsonl"))).as("the second apply completed the window")
                .isEqualTo(items(dir.resolve("b/items.jsonl")));
    }
}

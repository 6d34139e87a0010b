package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code export --since MARKER} through the real commands on a SQLite file [I1, I2, I4]: a table created
 * with {@code --change-log}, a full export at A, writes, the incremental export since A's marker and a full
 * export at B: A's items with the changes applied are B's, item for item, and the manifest names both
 * markers. A stale marker is refused by name with nothing written.
 */
class ExportSinceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void ok(Cli.Run run) {
        assertThat(run.code()).as(run.err()).isZero();
    }

    private static void put(Path db, String item) {
        ok(Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item", item));
    }

    private static String item(String pk, String v) {
        return "{\"pk\":{\"S\":\"" + pk + "\"},\"v\":{\"S\":\"" + v + "\"}}";
    }

    @Test
    void i2_fullAtAPlusExportSinceAIsFullAtB() throws Exception {
        Path dir = Cli.scratch("export-since");
        Path db = dir.resolve("t.db");
        ok(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S",
                "--change-log", "NEW_AND_OLD_IMAGES"));
        put(db, item("a", "1"));
        put(db, item("b", "1"));
        put(db, item("c", "1"));
        ok(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("a").toString()));
        String markerA = JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();

        put(db, item("a", "2"));
        put(db, item("a", "3"));
        put(db, item("d", "1"));
        ok(Cli.run("delete-item", "--sqlite", db.toString(), "--table", "things", "--key-json", "{\"pk\":{\"S\":\"b\"}}"));

        Cli.Run since = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("changes").toString(), "--since", markerA);
        ok(since);
        assertThat(since.out()).contains("exported 3 changes (2 puts, 1 deletes)");
        ok(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("b").toString()));

        JsonNode manifest = JSON.readTree(dir.resolve("changes/manifest.json").toFile());
        String markerB = JSON.readTree(dir.resolve("b/manifest.json").toFile()).path("snapshot").path("marker").asText();
        assertThat(manifest.path("since").path("marker").asText()).isEqualTo(markerA);
        assertThat(manifest.path("until").path("marker").asText()).isEqualTo(markerB);

        Map<String, JsonNode> replayed = items(dir.resolve("a/items.jsonl"));
        for (String line : Files.readAllLines(dir.resolve("changes/changes.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode change = JSON.readTree(line);
            String key = change.path("Keys").toString();
            if (change.has("NewImage")) {
                replayed.put(key, change.get("NewImage"));
            } else {
                replayed.remove(key);
            }
        }
        assertThat(replayed).isEqualTo(items(dir.resolve("b/items.jsonl")));
    }

    @Test
    void i4_aStaleMarkerIsRefusedByNameAndNothingIsWritten() throws Exception {
        Path dir = Cli.scratch("export-since-stale");
        Path db = dir.resolve("t.db");
        ok(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S",
                "--change-log", "NEW_IMAGE"));
        put(db, item("a", "1"));
        ok(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("a").toString()));
        String marker = JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();
        String stale = marker.substring(0, marker.indexOf('@')) + "@0";

        Cli.Run refused = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("changes").toString(), "--since", stale);

        assertThat(refused.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(refused.err()).contains("'" + stale + "'").contains("older than the change log");
        assertThat(Files.exists(dir.resolve("changes"))).as("no output directory left").isFalse();
    }

    @Test
    void i1_updateTableSwitchesTheLogOnLater_aMarkerFromBeforeIsRefused_andAViewChangeWhileOnIsRefusedByName()
            throws Exception {
        Path dir = Cli.scratch("update-table");
        Path db = dir.resolve("t.db");
        ok(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S"));
        put(db, item("a", "1"));
        ok(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("before").toString()));
        String before = JSON.readTree(dir.resolve("before/manifest.json").toFile()).path("snapshot").path("marker").asText();

        Cli.Run on = Cli.run("update-table", "--sqlite", db.toString(), "--table", "things", "--change-log", "NEW_IMAGE");
        ok(on);
        assertThat(on.out()).contains("table 'things': change log NEW_IMAGE (was OFF)");
        Cli.Run again = Cli.run("update-table", "--sqlite", db.toString(), "--table", "things", "--change-log", "NEW_IMAGE");
        ok(again);
        assertThat(again.out()).contains("(unchanged)");

        Cli.Run early = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("early").toString(), "--since", before);
        assertThat(early.code()).as("[I4] a marker from before the switch").isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(early.err()).contains("'" + before + "'");

        ok(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("a").toString()));
        String markerA = JSON.readTree(dir.resolve("a/manifest.json").toFile()).path("snapshot").path("marker").asText();
        put(db, item("b", "1"));
        Cli.Run since = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("changes").toString(), "--since", markerA);
        ok(since);
        assertThat(since.out()).contains("exported 1 changes (1 puts, 0 deletes)");

        Cli.Run viewChange = Cli.run("update-table", "--sqlite", db.toString(), "--table", "things",
                "--change-log", "NEW_AND_OLD_IMAGES");
        assertThat(viewChange.code()).as("[I1] a view change while on").isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(viewChange.err()).contains("'things'").contains("cannot become NEW_AND_OLD_IMAGES");
        Cli.Run bad = Cli.run("update-table", "--sqlite", db.toString(), "--table", "things", "--change-log", "SOMETIMES");
        assertThat(bad.code()).as("an unknown view is a usage error").isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("SOMETIMES");
        Cli.Run missing = Cli.run("update-table", "--sqlite", db.toString(), "--table", "nope", "--change-log", "OFF");
        assertThat(missing.code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);

        ok(Cli.run("update-table", "--sqlite", db.toString(), "--table", "things", "--change-log", "OFF"));
        Cli.Run off = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("off").toString(), "--since", markerA);
        assertThat(off.code()).as("[I1] no window from a table whose log is off").isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(Files.exists(dir.resolve("off"))).as("no output directory left").isFalse();
    }

    private static Map<String, JsonNode> items(Path jsonl) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        try (Stream<String> lines = Files.lines(jsonl, StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                JsonNode item = JSON.readTree(line);
                out.put("{\"pk\":" + item.get("pk").toString() + "}", item);
            }
        }
        return out;
    }
}

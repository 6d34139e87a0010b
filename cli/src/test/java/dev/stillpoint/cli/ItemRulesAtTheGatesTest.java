package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.backup.TableExport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * [V2] DynamoDB's item rules at the command line's gates, against real files (issue 27, findings 1, 6, 7):
 * {@code put} refuses what DynamoDB refuses; a stored item PutItem would refuse (planted straight into the
 * SQLite file) ends {@code export} with exit 8 naming it and no manifest, so an export that exits 0 always
 * restores; {@code restore} refuses such an input in its up-front check, naming the file's line, before
 * anything (not even the SQLite file, its -wal or -shm) is created.
 */
class ItemRulesAtTheGatesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // Finding 1: put --item '{"pk":{"S":"a"},"attr":{"SS":[]}}' exited 0.
    @Test
    void v1_putRefusesAnEmptySetInDynamoDbsWords() {
        Path dir = Cli.scratch("gates-put");
        String db = dir.resolve("x.db").toString();
        assertThat(Cli.run("create-table", "--sqlite", db, "--table", "Tbl", "--key", "pk:S").code()).isZero();

        Cli.Run run = Cli.run("put", "--sqlite", db, "--table", "Tbl", "--item", "{\"pk\":{\"S\":\"a\"},\"attr\":{\"SS\":[]}}");

        assertThat(run.code()).as(run.err()).isNotZero();
        assertThat(run.err()).contains("One or more parameter values were invalid: An string set  may not be empty")
                .contains("'attr'");
        assertThat(Cli.run("put", "--sqlite", db, "--table", "Tbl", "--item",
                "{\"pk\":{\"S\":\"a\"},\"attr\":{\"SS\":[\"x\"]}}").code()).as("a set of one member").isZero();
    }

    // Finding 6: each of these, written into the row with SQLite, was exported with exit 0 and a manifest.
    @Test
    void v2_aStoredItemPutItemWouldRefuseEndsTheExportWithExitEightAndNoManifest() throws Exception {
        Map<String, String> planted = new LinkedHashMap<>();
        planted.put("N zero", "\"v\":{\"N\":\"zero\"}");
        planted.put("N 1e200", "\"v\":{\"N\":\"1e200\"}");
        planted.put("NS holding one", "\"v\":{\"NS\":[\"1\",\"one\"]}");
        planted.put("an empty SS", "\"v\":{\"SS\":[]}");
        planted.put("an SS holding a twice", "\"v\":{\"SS\":[\"a\",\"a\"]}");
        planted.put("a value at level 33", "\"v\":" + "{\"L\":[".repeat(33) + "]}".repeat(33));
        int i = 0;
        for (Map.Entry<String, String> p : planted.entrySet()) {
            Path dir = Cli.scratch("gates-export");
            Path db = ExportCheckTest.database(dir);
            String key = ExportCheckTest.corruptThirdRow(db, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"3\"}," + p.getValue() + "}");
            Path out = dir.resolve("out");
            List<String> args = new ArrayList<>(List.of("export", "--sqlite", db.toString(), "--table", "things",
                    "--out", out.toString()));
            if (i++ % 2 == 1) {
                args.addAll(List.of("--format", "dynamodb"));
            }

            Cli.Run run = Cli.run(args.toArray(String[]::new));

            assertThat(run.code()).as(p.getKey() + ": " + run.err()).isEqualTo(ExitCodes.CORRUPT_ITEM);
            assertThat(run.err().lines()).as(p.getKey()).singleElement().asString()
                    .startsWith("stillpoint export: item 3 (line 3 of ")
                    .contains("stored key " + key + ")")
                    .endsWith("export stopped, no manifest written");
            assertThat(files(out)).as("%s: no manifest, no file", p.getKey()).isEmpty();
        }
    }

    // Finding 7: these passed the up-front check; the table was created, loaded, then removed (exit 14),
    // the SQLite file and its -wal and -shm left behind, and the position given was within a batch.
    @Test
    void v2_restoreRefusesWhatPutItemWouldRefuseBeforeCreatingAnythingNamingTheLine() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("an item over 400 KB", "\"big\":{\"S\":\"" + "x".repeat(409_600) + "\"}");
        bad.put("a 39-digit number", "\"n\":{\"N\":\"123456789012345678901234567890123456789\"}");
        bad.put("a bad N", "\"n\":{\"N\":\"zero\"}");
        bad.put("an empty attribute name", "\"\":{\"S\":\"x\"}");
        Path dir = Cli.scratch("gates-restore");
        Path source = dir.resolve("src.db");
        ExportBackendsTest.load("--sqlite", source.toString());
        Path export = dir.resolve("export");
        assertThat(Cli.run("export", "--sqlite", source.toString(), "--table", "things", "--out", export.toString()).code())
                .isZero();
        for (Map.Entry<String, String> c : bad.entrySet()) {
            List<String> lines = new ArrayList<>();
            for (int line = 1; line <= 2_005; line++) {
                lines.add("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"" + line + "\"}" + (line == 2_003 ? "," + c.getValue() : "") + "}");
            }
            rewriteOurs(export, lines);
            Path target = dir.resolve("target-" + lines.hashCode() + ".db");

            Cli.Run run = Cli.run("restore", "--from", export.toString(), "--sqlite", target.toString(), "--table", "copy");

            assertThat(run.code()).as(c.getKey() + ": " + run.err()).isEqualTo(ExitCodes.INPUT_ITEM);
            assertThat(run.err()).as(c.getKey()).contains("items.jsonl line 2003").contains("PutItem would refuse the item")
                    .doesNotContain(" of 3");
            // Found from outside: the refusal named a stand-in table 'check-only' the user never saw [R6].
            if (c.getKey().equals("an empty attribute name")) {
                assertThat(run.err()).contains("an item of table 'copy'");
            }
            for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
                assertThat(Path.of(target + suffix)).as("%s: no %s created", c.getKey(), target.getFileName() + suffix)
                        .doesNotExist();
            }
        }
    }

    // Found from outside with the fix above: the target's name is checked before the input is read, so a bad one
    // is the user's --table named, not the export's definition blamed as unsound.
    @Test
    void v2_aRestoreIntoABadTableNameIsRefusedNamingItBeforeReadingTheInput() {
        Path dir = Cli.scratch("gates-restore-name");
        Path target = dir.resolve("t.db");

        Cli.Run run = Cli.run("restore", "--from", dir.resolve("no-such-export").toString(), "--sqlite",
                target.toString(), "--table", "T!");

        assertThat(run.err()).contains("table name 'T!'").doesNotContain("no-such-export");
        assertThat(run.code()).as(run.err()).isNotZero();
        assertThat(target).doesNotExist();
    }

    /** Writes {@code lines} as our layout's data file and rewrites the manifest's checksum, size and count to match. */
    private static void rewriteOurs(Path export, List<String> lines) throws Exception {
        Path items = export.resolve("items.jsonl");
        Files.write(items, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        ObjectNode manifest = (ObjectNode) JSON.readTree(export.resolve("manifest.json").toFile());
        manifest.put("sha256", HexFormat.of().formatHex(TableExport.sha256().digest(Files.readAllBytes(items))));
        manifest.put("bytes", Files.size(items));
        manifest.put("itemCount", lines.size());
        Files.writeString(export.resolve("manifest.json"), manifest.toString());
    }

    private static List<String> files(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

package dev.stillpoint.cli;

import dev.stillpoint.backup.TableExport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.ports.in.TableSnapshot;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The export: its files, and a distinct exit code for each way it can fail. */
class ExportCommandTest {

    private static final String[] ITEMS = {
        "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"10\"},\"v\":{\"S\":\"line\\nbreak \\\"quoted\\\"\"}}",
        "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"9\"},\"l\":{\"L\":[{\"BOOL\":true},{\"NULL\":true}]}}",
        "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"-1.5E1\"},\"m\":{\"M\":{\"x\":{\"NS\":[\"1\",\"2.5\"]}}}}",
        "{\"pk\":{\"S\":\"\uFF61\"},\"sk\":{\"N\":\"1\"}}",
        "{\"pk\":{\"S\":\"\uD83D\uDE00\"},\"sk\":{\"N\":\"1\"},\"bin\":{\"B\":\"AAEC\"}}",
        "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"0.001\"},\"cat\":{\"S\":\"x\"}}",
        "{\"pk\":{\"S\":\"B\"},\"sk\":{\"N\":\"1E2\"},\"ss\":{\"SS\":[\"p\",\"q\"]}}",
    };

    /** A database with table {@code t} (pk S, sk N, one GSI) holding {@link #ITEMS}. */
    private static Path database(Path dir) {
        Path db = dir.resolve("t.db");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S,sk:N",
                "--gsi", "by-cat:cat:S").code()).isZero();
        List<String> args = new ArrayList<>(List.of("put", "--sqlite", db.toString(), "--table", "things"));
        for (String item : ITEMS) {
            args.add("--item");
            args.add(item);
        }
        Cli.Run put = Cli.run(args.toArray(String[]::new));
        assertThat(put.code()).as(put.err()).isZero();
        return db;
    }

    @Test
    void exportWritesTheStoredItemsInKeyOrderAndAManifestThatDescribesThem() throws Exception {
        Path dir = Cli.scratch("export");
        Path db = database(dir);
        Path out = dir.resolve("out/nested");

        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty(); // no terminal in a test: no progress bar
        assertThat(run.out()).contains("exported 7 items of table 'things'").contains("key-ordered: yes");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("items.jsonl", "manifest.json");
        }
        Path data = out.resolve("items.jsonl");
        JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        assertThat(m.path("format").asText()).isEqualTo(TableExport.FORMAT);
        assertThat(m.path("tableName").asText()).isEqualTo("things");
        assertThat(m.path("account").asText()).isEqualTo(StorageCommand.DEFAULT_ACCOUNT);
        assertThat(m.path("dataFile").asText()).isEqualTo("items.jsonl");
        assertThat(m.path("itemCount").asLong()).isEqualTo(ITEMS.length);
        assertThat(m.path("bytes").asLong()).isEqualTo(Files.size(data));
        assertThat(m.path("sha256").asText()).isEqualTo(sha256(data));
        assertThat(m.path("keyOrdered").asBoolean()).isTrue();
        assertThat(m.path("snapshot").path("kind").asText()).isEqualTo("sqlite-wal");
        assertThat(m.path("snapshot").path("marker").asText()).isNotEmpty();
        JsonNode table = m.path("table");
        assertThat(table.path("TableName").asText()).isEqualTo("things");
        assertThat(table.path("TableStatus").asText()).isEqualTo("ACTIVE");
        assertThat(table.path("KeySchema").get(1).path("AttributeName").asText()).isEqualTo("sk");
        assertThat(table.path("AttributeDefinitions").toString()).contains("\"cat\"").contains("\"N\"");
        assertThat(table.path("GlobalSecondaryIndexes").get(0).path("IndexName").asText()).isEqualTo("by-cat");
        assertThat(table.has("ItemCount")).as("a snapshot's description carries no counts [S2]").isFalse();

        // Each line is an item exactly as stored: the table's items, in KeyOrder, each once.
        List<String> lines = Files.readAllLines(data);
        KeyOrder order = KeyOrder.resolve(KeySchema.composite("pk", "sk"),
                List.of(new dev.stillpoint.domain.key.AttributeDefinition("pk", dev.stillpoint.domain.key.ScalarType.S),
                        new dev.stillpoint.domain.key.AttributeDefinition("sk", dev.stillpoint.domain.key.ScalarType.N)))
                .ordered().orElseThrow();
        List<Item> expected = Stream.of(ITEMS).map(ItemJson::decode).sorted(order.itemComparator()).toList();
        assertThat(lines.stream().map(ItemJson::decode).toList()).containsExactlyElementsOf(expected);
        assertThat(lines).containsExactlyElementsOf(storedTexts(db));
        assertThat(lines.get(0)).startsWith("{\"pk\":{\"S\":\"B\"},\"sk\":{\"N\":\"100\"}");
        assertThat(lines.get(lines.size() - 1)).contains("\uD83D\uDE00"); // after U+FF61: UTF-8 order, not UTF-16

        // Again into the same directory: refused by name (issue 27, finding 11), both files as they were.
        String manifest = Files.readString(out.resolve("manifest.json"));
        Cli.Run again = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString());
        assertThat(again.code()).as(again.err()).isEqualTo(ExitCodes.OUTPUT);
        assertThat(again.err()).contains("already holds an export (manifest.json)");
        assertThat(Files.readString(out.resolve("manifest.json"))).isEqualTo(manifest);
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).hasSize(2);
        }
    }

    @Test
    void aMissingTableExitsThreeAndLeavesThePreviousExportAlone() throws Exception {
        Path dir = Cli.scratch("export-missing");
        Path db = database(dir);
        Path out = dir.resolve("out");
        assertThat(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString()).code()).isZero();
        String manifest = Files.readString(out.resolve("manifest.json"));

        Path other = dir.resolve("other");
        Files.createDirectories(other);
        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "nothing", "--out", other.toString());

        assertThat(run.code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        try (Stream<Path> files = Files.list(other)) {
            assertThat(files).isEmpty();
        }
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("stillpoint export: ").contains("nothing").contains("ResourceNotFoundException");
        assertThat(Files.readString(out.resolve("manifest.json"))).isEqualTo(manifest);
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).hasSize(2); // no temporary file left behind
        }
    }

    @Test
    void aMissingFileExitsFourAndIsNotCreated() {
        Path dir = Cli.scratch("export-nofile");
        Path db = dir.resolve("absent.db");

        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("out").toString());

        assertThat(run.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(run.err()).contains("does not exist");
        assertThat(db).doesNotExist();
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aFileThatIsNotADatabaseExitsFour() throws Exception {
        Path dir = Cli.scratch("export-notdb");
        Path text = Files.writeString(dir.resolve("t.db"), "id,name\n1,a\n");
        Path empty = Files.createFile(dir.resolve("empty.db"));

        Cli.Run run = Cli.run("export", "--sqlite", text.toString(), "--table", "things", "--out", dir.resolve("out").toString());
        Cli.Run runEmpty = Cli.run("export", "--sqlite", empty.toString(), "--table", "things", "--out", dir.resolve("out").toString());
        Cli.Run runDir = Cli.run("export", "--sqlite", dir.toString(), "--table", "things", "--out", dir.resolve("out").toString());

        assertThat(run.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(run.err()).contains("is not a SQLite database");
        assertThat(Files.readString(text)).isEqualTo("id,name\n1,a\n");
        assertThat(runEmpty.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(runEmpty.err()).contains("empty");
        assertThat(runDir.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(runDir.err()).contains("not a regular file");
    }

    @Test
    void anOutputPathThatIsAFileExitsFive() throws Exception {
        Path dir = Cli.scratch("export-outfile");
        Path db = database(dir);
        Path file = Files.writeString(dir.resolve("out"), "x");

        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", file.toString());
        Cli.Run under = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", file.resolve("sub").toString());

        assertThat(run.code()).isEqualTo(ExitCodes.OUTPUT);
        assertThat(run.err()).contains("is not a directory");
        assertThat(under.code()).isEqualTo(ExitCodes.OUTPUT);
        assertThat(under.err()).contains("cannot create output directory");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void everySlotHeldExitsSixNamingWhoHoldsThem() throws Exception {
        Path dir = Cli.scratch("export-slots");
        Path db = database(dir);
        Path out = dir.resolve("out");
        StringWriter stdout = new StringWriter();
        StringWriter stderr = new StringWriter();
        CommandLine cli = Cli.commandLine(stdout, stderr);
        CommandLine.ParseResult parsed = cli.parseArgs("export", "--sqlite", db.toString(), "--table", "things",
                "--out", out.toString());
        ExportCommand export = (ExportCommand) parsed.subcommand().commandSpec().userObject();

        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
            int slots = storage.snapshotPermits().capacity();
            for (int i = 0; i < slots; i++) {
                storage.snapshotPermits().acquire(HolderKind.BACKUP);
            }
            int code = export.exportWith(storage.snapshots());

            assertThat(code).isEqualTo(ExitCodes.SLOTS_FULL);
            assertThat(stderr.toString().lines()).singleElement().asString()
                    .startsWith("stillpoint export: ").contains("backups").contains("LimitExceededException");
            assertThat(out.resolve("manifest.json")).doesNotExist();
            try (Stream<Path> files = Files.list(out)) {
                assertThat(files).isEmpty();
            }

            // One slot back: the same command on the same engine exports.
            storage.snapshotPermits().release(HolderKind.BACKUP);
            assertThat(export.exportWith(storage.snapshots())).isZero();
            assertThat(out.resolve("manifest.json")).exists();
            assertThat(storage.snapshotPermits().inUse()).isEqualTo(slots - 1); // the export gave its slot back
        }
    }

    @Test
    void linesPassThroughUnlessUtf8CannotCarryThem() {
        String plain = "{\"s\":{\"S\":\"caf\u00E9 \uD83D\uDE00\"}}";
        assertThat(TableExport.line(plain, 0)).isSameAs(plain);
        String lone = "{\"s\":{\"S\":\"a\uD800b\"}}";
        assertThat(TableExport.line(lone, 0)).isEqualTo("{\"s\":{\"S\":\"a\\ud800b\"}}");
        assertThat(ItemJson.decode(TableExport.line(lone, 0)).get("s")).isEqualTo(ItemJson.decode(lone).get("s"));
        assertThatThrownBy(() -> TableExport.line("{\"s\":\n{\"S\":\"a\"}}", 4))
                .isInstanceOf(StorageException.class).hasMessageContaining("stored item 5");
    }

    private static List<String> storedTexts(Path db) {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db));
             TableSnapshot s = storage.snapshots().openTableSnapshot(StorageCommand.DEFAULT_ACCOUNT, "things")) {
            List<String> texts = new ArrayList<>();
            s.items().forEachRemaining(i -> texts.add(i.json()));
            return texts;
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.CheckedExport;
import dev.stillpoint.backup.ExportFormat;
import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportOptions;
import dev.stillpoint.backup.ExportReader;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.ExportTemps;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Export from every backend with snapshots, through the command line [E2]: SQLite, PostgreSQL in both
 * layouts (the embedded server), MongoDB when {@code STILLPOINT_TEST_MONGODB_URI} names a replica set;
 * Cassandra refused with its own exit code [C1]; passwords never printed; {@code --format dynamodb}
 * writes DynamoDB's DYNAMODB_JSON export layout.
 */
class ExportBackendsTest {

    private static final String SECRET = "s3cret-Pw";

    private static final String[] ITEMS = {
        "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"10\"},\"cat\":{\"S\":\"x\"}}",
        "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"9\"},\"l\":{\"L\":[{\"BOOL\":true},{\"NULL\":true}]}}",
        "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"-1.5E1\"},\"m\":{\"M\":{\"x\":{\"NS\":[\"1\",\"2.5\"]}}}}",
        "{\"pk\":{\"S\":\"\uD83D\uDE00\"},\"sk\":{\"N\":\"1\"},\"bin\":{\"B\":\"AAEC\"},\"bs\":{\"BS\":[\"AQ==\"]}}",
        "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"0.001\"},\"ss\":{\"SS\":[\"p\",\"q\"]},\"cat\":{\"S\":\"y\"}}",
    };

    /** Creates table {@code things} (pk S, sk N, GSI by-cat) on the backend and puts {@link #ITEMS}. */
    static void load(String... backend) {
        Cli.Run created = Cli.run(concat(List.of("create-table"), backend, "--table", "things", "--key", "pk:S,sk:N",
                "--gsi", "by-cat:cat:S"));
        assertThat(created.code()).as(created.err()).isZero();
        List<String> put = new ArrayList<>(List.of("put"));
        put.addAll(List.of(backend));
        put.addAll(List.of("--table", "things"));
        for (String item : ITEMS) {
            put.add("--item");
            put.add(item);
        }
        Cli.Run run = Cli.run(put.toArray(String[]::new));
        assertThat(run.code()).as(run.err()).isZero();
    }

    static String[] concat(List<String> head, String[] middle, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(middle));
        all.addAll(List.of(tail));
        return all.toArray(String[]::new);
    }

    private static void assertExported(Path out, String... backend) throws Exception {
        Cli.Run run = Cli.run(concat(List.of("export"), backend, "--table", "things", "--out", out.toString()));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out() + run.err()).doesNotContain(SECRET);
        List<Item> lines = Files.readAllLines(out.resolve("items.jsonl")).stream().map(ItemJson::decode).toList();
        assertThat(lines).containsExactlyInAnyOrderElementsOf(Stream.of(ITEMS).map(ItemJson::decode).toList());
        JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        assertThat(m.path("itemCount").asLong()).isEqualTo(ITEMS.length);
        assertThat(m.path("table").path("GlobalSecondaryIndexes").get(0).path("IndexName").asText()).isEqualTo("by-cat");
    }

    @Test
    void exportFromPostgresInTheSharedLayout() throws Exception {
        String url = CliPg.newDatabase("shared", SECRET);
        load("--postgres", url);
        Path out = Cli.scratch("pg-shared").resolve("out");
        assertExported(out, "--postgres", url);
        JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        assertThat(m.path("snapshot").path("kind").asText()).startsWith("postgresql");
        assertThat(m.path("keyOrdered").asBoolean()).isTrue();
    }

    @Test
    void exportFromPostgresInTheSeparateLayout() throws Exception {
        String catalog = CliPg.newDatabase("catalog", SECRET);
        String data = CliPg.newDatabase("data", SECRET);
        load("--postgres", catalog, "--data-url", data);
        assertExported(Cli.scratch("pg-separate").resolve("out"), "--postgres", catalog, "--data-url", data);
    }

    @Test
    void exportFromMongoDbWhenAReplicaSetIsGiven() throws Exception {
        String uri = System.getenv("STILLPOINT_TEST_MONGODB_URI");
        org.junit.jupiter.api.Assumptions.assumeTrue(uri != null && !uri.isBlank(),
                "STILLPOINT_TEST_MONGODB_URI names no MongoDB replica set");
        load("--mongodb", uri);
        assertExported(Cli.scratch("mongo").resolve("out"), "--mongodb", uri);
    }

    @Test
    void exportFromCassandraIsUnsupportedWithItsOwnExitCodeAndNothingWritten() {
        Path out = Cli.scratch("cassandra").resolve("out");
        // Port 9 has no node: the refusal comes before anything is opened [C1].
        Cli.Run run = Cli.run("export", "--cassandra", "127.0.0.1:9", "--table", "things", "--out", out.toString());
        assertThat(run.code()).isEqualTo(ExitCodes.UNSUPPORTED).isEqualTo(9);
        assertThat(run.err()).contains("Cassandra").contains("no read fixes an instant")
                .contains("UnsupportedOperationException");
        assertThat(out).doesNotExist();
    }

    @Test
    void passwordsInUrlsAreNeverPrinted() {
        // An unreachable server: the error names it with the password masked, exit 4.
        String url = "jdbc:postgresql://127.0.0.1:1/nowhere?user=someone&password=" + SECRET + "&connectTimeout=1";
        Cli.Run run = Cli.run("export", "--postgres", url, "--table", "things", "--out",
                Cli.scratch("masked").resolve("out").toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(run.err()).contains("password=***").doesNotContain(SECRET);

        String mongo = "mongodb://someone:" + SECRET + "@127.0.0.1:1/?serverSelectionTimeoutMS=300";
        Cli.Run m = Cli.run("list-tables", "--mongodb", mongo);
        assertThat(m.code()).as(m.err()).isNotZero();
        assertThat(m.err()).doesNotContain(SECRET);

        assertThat(Backend.mask("jdbc:postgresql://h/db?user=u&password=p%40ss&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
        assertThat(Backend.mask("mongodb://u:p%40ss@h1,h2/db")).isEqualTo("mongodb://u:***@h1,h2/db");
    }

    @Test
    void formatDynamodbWritesDynamoDbsExportLayout() throws Exception {
        Path dir = Cli.scratch("ddb-format");
        Path db = dir.resolve("t.db");
        load("--sqlite", db.toString());
        Path out = dir.resolve("out");
        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString(),
                "--format", "dynamodb");
        assertThat(run.code()).as(run.err()).isZero();

        ObjectMapper json = new ObjectMapper();
        JsonNode summary = json.readTree(out.resolve("manifest-summary.json").toFile());
        assertThat(summary.path("version").asText()).isEqualTo("2020-06-30");
        assertThat(summary.path("outputFormat").asText()).isEqualTo("DYNAMODB_JSON");
        assertThat(summary.path("itemCount").asLong()).isEqualTo(ITEMS.length);
        assertThat(summary.path("tableArn").asText()).endsWith(":table/things");
        assertThat(summary.path("exportArn").asText()).startsWith(summary.path("tableArn").asText() + "/export/");
        assertThat(java.time.Instant.parse(summary.path("exportTime").asText())).isBeforeOrEqualTo(java.time.Instant.now());
        assertThat(summary.path("manifestFilesS3Key").asText()).isEqualTo("manifest-files.json");

        List<String> fileLines = Files.readAllLines(out.resolve("manifest-files.json"));
        assertThat(fileLines).hasSize(1);
        JsonNode f = json.readTree(fileLines.get(0));
        Path data = out.resolve(f.path("dataFileS3Key").asText());
        assertThat(data.getParent().getFileName().toString()).isEqualTo("data");
        assertThat(data.getFileName().toString()).endsWith(".json.gz");
        byte[] md5 = MessageDigest.getInstance("MD5").digest(Files.readAllBytes(data));
        assertThat(f.path("md5Checksum").asText()).isEqualTo(Base64.getEncoder().encodeToString(md5));
        assertThat(f.path("etag").asText()).isEqualTo(HexFormat.of().formatHex(md5));
        assertThat(f.path("itemCount").asLong()).isEqualTo(ITEMS.length);

        List<Item> items = new ArrayList<>();
        long itemJsonBytes = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(data)),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode l = json.readTree(line);
                assertThat(l.size()).isEqualTo(1);
                items.add(ItemJson.decode(l.get("Item").toString()));
                // {"Item":<the item as stored>}: the item's own bytes are the line less 9 bytes of wrapping.
                itemJsonBytes += line.getBytes(StandardCharsets.UTF_8).length - "{\"Item\":}".length();
            }
        }
        assertThat(items).containsExactlyInAnyOrderElementsOf(Stream.of(ITEMS).map(ItemJson::decode).toList());
        // "The billable size of the table export" (DynamoDB API reference, ExportDescription:
        // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportDescription.html): the table data
        // exported, uncompressed, not the gzipped file's size.
        assertThat(summary.path("billedSizeBytes").asLong()).as("billedSizeBytes: the items' JSON, uncompressed")
                .isEqualTo(itemJsonBytes).isNotEqualTo(Files.size(data));
        assertThat(Files.readString(out.resolve("manifest-summary.checksum")))
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                        .digest(Files.readAllBytes(out.resolve("manifest-summary.json")))));
        try (Stream<Path> left = Files.walk(out)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void bothLayoutsReadBackThroughTheCheckedReader() throws Exception {
        Path dir = Cli.scratch("read-back");
        Path db = dir.resolve("t.db");
        load("--sqlite", db.toString());
        List<Item> expected = Stream.of(ITEMS).map(ItemJson::decode).toList();

        // DynamoDB's layout in three data files (two items per file): read back with the key given [E3].
        Path ddb = dir.resolve("ddb");
        try (SqliteStorage ro = SqliteStorage.openReadOnly(SqliteConfig.file(db).withPool(2, 1))) {
            ExportResult r = TableExport.to(ddb).options(new ExportOptions(ExportFormat.DYNAMODB, true, 2))
                    .run(ro.snapshots(), StorageCommand.DEFAULT_ACCOUNT, "things");
            assertThat(r.dataFiles()).hasSize(3);
        }
        CheckedExport read = ExportReader.check(ddb, "Restored", Optional.of(ExportReader.parseKey("pk:S,sk:N")));
        assertThat(read.format()).isEqualTo(ExportFormat.DYNAMODB);
        assertThat(read.itemCount()).isEqualTo(ITEMS.length);
        List<Item> items = new ArrayList<>();
        read.load(3, items::addAll);
        assertThat(items).containsExactlyInAnyOrderElementsOf(expected);

        // Ours: the definition comes from the manifest.
        Path ours = dir.resolve("ours");
        assertThat(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", ours.toString()).code()).isZero();
        CheckedExport readOurs = ExportReader.check(ours, "Restored", Optional.empty());
        List<Item> ourItems = new ArrayList<>();
        readOurs.load(100, ourItems::addAll);
        assertThat(ourItems).containsExactlyElementsOf(Files.readAllLines(ours.resolve("items.jsonl")).stream()
                .map(ItemJson::decode).toList());
        CreateTableRequest definition = readOurs.definition(StorageCommand.DEFAULT_ACCOUNT, "things2");
        assertThat(definition.keySchema().sortKey()).contains("sk");
        assertThat(definition.gsis()).singleElement().satisfies(g -> assertThat(g.name()).isEqualTo("by-cat"));
        assertThat(readOurs.sourceTableArn()).get().asString().endsWith(":table/things");
    }
}

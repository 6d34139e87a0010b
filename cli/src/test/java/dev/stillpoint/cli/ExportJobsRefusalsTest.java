package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code export -j N} and {@code restore -j N} refuse [B3], on a SQLite file: a count outside 1..64 named
 * with nothing created, MongoDB's -j above 1 before anything is opened, a second data file changed after the
 * export, one key in two files; and DynamoDB's layout at -j 3 restored at -j 3.
 */
class ExportJobsRefusalsTest {

    private static Path exported(Path dir, String... more) {
        Path db = dir.resolve("t.db");
        ExportJobsTest.load("--sqlite", db.toString());
        Path out = dir.resolve("out");
        Cli.Run run = Cli.run(Stream.concat(Stream.of("export", "--sqlite", db.toString(), "--table", "things", "--out",
                out.toString()), Stream.of(more)).toArray(String[]::new));
        assertThat(run.code()).as(run.err()).isZero();
        return out;
    }

    @Test
    void aCountOutsideOneToSixtyFourIsAUsageErrorNamingItAndCreatesNothing() throws Exception {
        Path dir = Cli.scratch("jobs-bad-count");
        Path db = dir.resolve("t.db");
        ExportJobsTest.load("--sqlite", db.toString());
        for (String bad : List.of("0", "-1", "1000", "65")) {
            Path out = dir.resolve("out" + bad);
            Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString(),
                    "-j", bad);
            assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).contains("got " + bad).contains("1..64");
            assertThat(out).doesNotExist();

            Path target = dir.resolve("target" + bad + ".db");
            Cli.Run restore = Cli.run("restore", "--from", dir.toString(), "--sqlite", target.toString(), "--table", "copy",
                    "--jobs", bad);
            assertThat(restore.code()).as(restore.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(restore.err()).contains("got " + bad);
            assertThat(target).doesNotExist();
        }
    }

    @Test
    void mongoDbServesNoSegmentsSoMoreThanOneIsRefusedBeforeAnythingIsOpened() {
        Path out = Cli.scratch("jobs-mongo").resolve("out");
        // No server listens there: the refusal comes from the backend's capabilities, before any connection.
        Cli.Run run = Cli.run("export", "--mongodb", "mongodb://127.0.0.1:1/none", "--table", "things", "--out",
                out.toString(), "-j", "2");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(run.err()).contains("MongoDB").contains("-j 2");
        assertThat(out).doesNotExist();
    }

    @Test
    void aChangedSecondFileIsRefusedNamingItAndNothingIsCreated() throws Exception {
        Path dir = Cli.scratch("jobs-tampered");
        Path out = exported(dir, "-j", "4");
        Path second = out.resolve("items-00001.jsonl");
        String text = Files.readString(second);
        Files.writeString(second, text.replaceFirst("item ", "itex "));
        Path target = dir.resolve("target.db");

        Cli.Run run = Cli.run("restore", "--from", out.toString(), "--sqlite", target.toString(), "--table", "copy",
                "-j", "4");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY);
        assertThat(run.err()).contains("items-00001.jsonl").contains("sha256");
        assertThat(target).doesNotExist();
    }

    @Test
    void oneKeyInTwoFilesIsRefusedNamingBothFiles() throws Exception {
        Path dir = Cli.scratch("jobs-duplicate");
        Path out = exported(dir, "-j", "2");
        // The first line of file 0 appended to file 1, with the manifest's count and sha256 made to agree: the
        // files are intact, their content holds one key twice.
        Path first = out.resolve("items-00000.jsonl");
        Path second = out.resolve("items-00001.jsonl");
        String line = Files.readAllLines(first).get(0);
        Files.writeString(second, Files.readString(second) + line + "\n");
        ObjectNode m = (ObjectNode) new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        ObjectNode entry = (ObjectNode) m.path("dataFiles").get(1);
        entry.put("itemCount", entry.path("itemCount").asLong() + 1).put("sha256", ExportJobsTest.sha256(second))
                .put("bytes", Files.size(second));
        m.put("itemCount", m.path("itemCount").asLong() + 1);
        Files.writeString(out.resolve("manifest.json"), m.toString(), StandardCharsets.UTF_8);
        Path target = dir.resolve("target.db");

        Cli.Run run = Cli.run("restore", "--from", out.toString(), "--sqlite", target.toString(), "--table", "copy",
                "-j", "2");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.INPUT_ITEM);
        assertThat(run.err()).contains("items-00000.jsonl line 1").contains("items-00001.jsonl line")
                .contains("hold one key");
        assertThat(target).doesNotExist();
    }

    @Test
    void dynamoDbLayoutAtThreeSegmentsWritesEachSegmentsFilesAndRestores() throws Exception {
        Path dir = Cli.scratch("jobs-ddb");
        Path out = exported(dir, "--format", "dynamodb", "-j", "3");
        Path single = dir.resolve("one");
        assertThat(Cli.run("export", "--sqlite", dir.resolve("t.db").toString(), "--table", "things", "--out",
                single.toString()).code()).isZero();
        List<String> listed = Files.readAllLines(out.resolve("manifest-files.json"));
        assertThat(listed).hasSize(3);
        long sum = 0;
        for (String l : listed) {
            sum += new ObjectMapper().readTree(l).path("itemCount").asLong();
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("manifest-summary.json").toFile());
        assertThat(sum).isEqualTo(summary.path("itemCount").asLong()).isEqualTo(240);
        Path target = dir.resolve("target.db");
        Cli.Run run = Cli.run("restore", "--from", out.toString(), "--sqlite", target.toString(), "--table", "copy",
                "--key", "pk:S,sk:N", "-j", "3");
        assertThat(run.code()).as(run.err()).isZero();
        // Named by the backend: Cassandra's summary said "(SQLite: one)" (found from outside on a live node).
        assertThat(run.out()).contains("3 data files, loaded 1 at once (-j 3; SQLite takes 1 writer at once)");
        Path back = dir.resolve("back");
        assertThat(Cli.run("export", "--sqlite", target.toString(), "--table", "copy", "--out", back.toString()).code())
                .isZero();
        assertThat(Files.readAllLines(back.resolve("items.jsonl")))
                .containsExactlyElementsOf(Files.readAllLines(single.resolve("items.jsonl")));
    }
}

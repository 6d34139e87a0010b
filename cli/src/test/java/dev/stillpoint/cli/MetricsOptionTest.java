package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics} [X1, issue 29]: at exit a storage command prints X1's meters, read from
 * metrics-micrometer's meters in a SimpleMeterRegistry, as text on stderr or as a {@code metrics} array
 * under {@code --json}; both parsed here.
 */
class MetricsOptionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode meter(JsonNode answer, String name, String tagKey, String tagValue) {
        for (JsonNode m : answer.path("metrics")) {
            if (m.path("name").asText().equals(name) && (tagKey == null || m.path("tags").path(tagKey).asText().equals(tagValue))) {
                return m;
            }
        }
        throw new AssertionError("no meter " + name + " in " + answer.path("metrics"));
    }

    @Test
    void putUnderJsonAnswersWithItsWritesAndExportPrintsItsStreamedItemsAsText() throws Exception {
        Path dir = Cli.scratch("metrics");
        String db = dir.resolve("t.db").toString();
        assertThat(Cli.run("create-table", "--sqlite", db, "--table", "things", "--key", "pk:S").code()).isZero();

        Cli.Run put = Cli.run("put", "--sqlite", db, "--table", "things", "--json", "--metrics",
                "--item", "{\"pk\":{\"S\":\"a\"}}", "--item", "{\"pk\":{\"S\":\"b\"}}", "--item", "{\"pk\":{\"S\":\"c\"}}");
        assertThat(put.code()).as(put.err()).isZero();
        JsonNode answer = JSON.readTree(put.out());
        // put sends its items as batch writes: the ok writes, whatever their operation tag, are counted.
        double writes = 0;
        for (JsonNode m : answer.path("metrics")) {
            if (m.path("name").asText().equals("stillpoint.writes") && m.path("tags").path("outcome").asText().equals("ok")) {
                writes += m.path("values").path("count").asDouble();
            }
        }
        assertThat(writes).as("writes counted by stillpoint.writes (outcome ok)").isPositive();
        assertThat(meter(answer, "stillpoint.writes", "operation", "batch").path("values").has("total_time"))
                .as("a timer's statistics").isTrue();
        assertThat(meter(answer, "stillpoint.snapshot.permits.capacity", null, null).path("values").path("value").asDouble())
                .as("the permit gauge").isPositive();

        Cli.Run export = Cli.run("export", "--sqlite", db, "--table", "things", "--out", dir.resolve("dump").toString(),
                "--metrics", "--quiet");
        assertThat(export.code()).as(export.err()).isZero();
        List<String> lines = new ArrayList<>();
        for (String l : export.err().lines().toList()) {
            if (l.startsWith("stillpoint metrics: ")) {
                lines.add(l.substring("stillpoint metrics: ".length()));
            }
        }
        long itemsFile = Files.size(dir.resolve("dump/items.jsonl"));
        // Found from outside: the export's own meters read 0 after exporting 6 items, the CLI told them nothing.
        assertThat(lines).as("one line per meter on stderr").isNotEmpty()
                .contains("stillpoint.snapshot.streamed.items count=3")
                .contains("stillpoint.export.items count=3")
                .contains("stillpoint.export.bytes count=" + itemsFile);
        assertThat(export.out()).as("stdout stays the command's own").doesNotContain("stillpoint metrics");

        Cli.Run jobs = Cli.run("export", "--sqlite", db, "--table", "things", "--out", dir.resolve("dump2").toString(),
                "-j", "2", "--json", "--metrics", "--quiet");
        assertThat(jobs.code()).as(jobs.err()).isZero();
        JsonNode jobsAnswer = JSON.readTree(jobs.out());
        assertThat(meter(jobsAnswer, "stillpoint.export.items", null, null).path("values").path("count").asLong())
                .as("export -j 2's items").isEqualTo(3);
        assertThat(meter(jobsAnswer, "stillpoint.export.bytes", null, null).path("values").path("count").asLong())
                .as("export -j 2's bytes, its answer's figure").isEqualTo(jobsAnswer.path("bytes").asLong()).isPositive();

        Cli.Run without = Cli.run("put", "--sqlite", db, "--table", "things", "--json", "--item", "{\"pk\":{\"S\":\"d\"}}");
        assertThat(JSON.readTree(without.out()).has("metrics")).as("no meters without --metrics").isFalse();
    }

    @Test
    void anIncrementalExportTellsTheExportMetersItsChangesAndBytes() throws Exception {
        Path dir = Cli.scratch("metrics-since");
        String db = dir.resolve("t.db").toString();
        assertThat(Cli.run("create-table", "--sqlite", db, "--table", "things", "--key", "pk:S",
                "--change-log", "NEW_IMAGE").code()).isZero();
        assertThat(Cli.run("put", "--sqlite", db, "--table", "things", "--item", "{\"pk\":{\"S\":\"a\"}}").code()).isZero();
        Cli.Run full = Cli.run("export", "--sqlite", db, "--table", "things", "--out", dir.resolve("a").toString(), "--json");
        assertThat(full.code()).as(full.err()).isZero();
        String marker = JSON.readTree(full.out()).path("snapshot").path("marker").asText();
        assertThat(Cli.run("put", "--sqlite", db, "--table", "things", "--item", "{\"pk\":{\"S\":\"b\"}}",
                "--item", "{\"pk\":{\"S\":\"c\"}}").code()).isZero();
        assertThat(Cli.run("delete-item", "--sqlite", db, "--table", "things", "--key-json", "{\"pk\":{\"S\":\"a\"}}")
                .code()).isZero();

        Cli.Run since = Cli.run("export", "--sqlite", db, "--table", "things", "--out", dir.resolve("changes").toString(),
                "--since", marker, "--json", "--metrics");
        assertThat(since.code()).as(since.err()).isZero();
        JsonNode answer = JSON.readTree(since.out());
        assertThat(answer.path("changes").asLong()).as("two puts and a delete").isEqualTo(3);
        assertThat(meter(answer, "stillpoint.export.items", null, null).path("values").path("count").asLong())
                .as("the changes exported, tombstones included").isEqualTo(3);
        assertThat(meter(answer, "stillpoint.export.bytes", null, null).path("values").path("count").asLong())
                .as("the changes file's bytes").isEqualTo(Files.size(dir.resolve("changes/changes.jsonl")));
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --json} on every command [X3]: one JSON object on stdout, parsed here with Jackson, with the
 * command, its exit code and figures, or the error's reason, message and exit code. The commands are
 * enumerated from picocli's model, so a command added without a case here fails this test.
 */
class JsonAnswersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String ITEM = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"x\"}}";
    private static final String KEY = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}";

    private static JsonNode answer(Cli.Run run) throws Exception {
        List<String> lines = run.out().lines().toList();
        assertThat(lines).as("stdout is one JSON object on one line; stderr: " + run.err()).hasSize(1);
        JsonNode node = MAPPER.readTree(lines.get(0));
        assertThat(node.isObject()).isTrue();
        assertThat(node.path("exitCode").asInt(-1)).as("exitCode is the process's").isEqualTo(run.code());
        return node;
    }

    private static Cli.Run json(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("--json");
        return Cli.run(all.toArray(String[]::new));
    }

    @Test
    void everyCommandAnswersInJsonOnSuccessAndOnFailure() throws Exception {
        Path dir = Cli.scratch("json");
        String db = dir.resolve("t.db").toString();
        String out = dir.resolve("dump").toString();
        // In the order they run: each success leaves what the next needs.
        Map<String, List<String>> success = new LinkedHashMap<>();
        success.put("create-table", List.of("create-table", "--sqlite", db, "--table", "things", "--key", "pk:S,sk:N"));
        success.put("put", List.of("put", "--sqlite", db, "--table", "things", "--item", ITEM));
        success.put("get-item", List.of("get-item", "--sqlite", db, "--table", "things", "--key-json", KEY));
        success.put("describe", List.of("describe", "--sqlite", db, "--table", "things"));
        success.put("list-tables", List.of("list-tables", "--sqlite", db));
        success.put("export", List.of("export", "--sqlite", db, "--table", "things", "--out", out));
        success.put("restore", List.of("restore", "--from", out, "--sqlite", db, "--table", "things2"));
        success.put("update-table", List.of("update-table", "--sqlite", db, "--table", "things", "--change-log", "NEW_IMAGE"));
        success.put("delete-item", List.of("delete-item", "--sqlite", db, "--table", "things", "--key-json", KEY));
        success.put("delete-table", List.of("delete-table", "--sqlite", db, "--table", "things2"));
        success.put("demo", List.of("demo", "--items", "300"));
        success.put("migrate", List.of("migrate", "--sqlite", db));

        Map<String, List<String>> failure = new LinkedHashMap<>();
        String absent = dir.resolve("absent.db").toString();
        failure.put("create-table", List.of("create-table", "--sqlite", db, "--table", "things", "--key", "pk:S"));
        failure.put("put", List.of("put", "--sqlite", db, "--table", "things", "--item", "{\"pk\":{\"S\":\"a\"}}"));
        failure.put("get-item", List.of("get-item", "--sqlite", db, "--table", "things", "--key-json", KEY));
        failure.put("describe", List.of("describe", "--sqlite", db, "--table", "nope"));
        failure.put("list-tables", List.of("list-tables", "--sqlite", absent));
        failure.put("export", List.of("export", "--sqlite", db, "--table", "things", "--out", out));
        failure.put("restore", List.of("restore", "--from", dir.resolve("nothing").toString(), "--sqlite", db,
                "--table", "things3"));
        failure.put("update-table", List.of("update-table", "--sqlite", db, "--table", "nope", "--change-log", "OFF"));
        failure.put("delete-item", List.of("delete-item", "--sqlite", db, "--table", "things", "--key-json", "{}"));
        failure.put("delete-table", List.of("delete-table", "--sqlite", db, "--table", "things2"));
        failure.put("demo", List.of("demo", "--items", "0"));
        failure.put("migrate", List.of("migrate", "--sqlite", absent));

        CommandLineNames names = new CommandLineNames();
        assertThat(success.keySet()).as("a success case for every command").containsExactlyInAnyOrderElementsOf(names.all);
        assertThat(failure.keySet()).as("a failure case for every command").containsExactlyInAnyOrderElementsOf(names.all);

        for (Map.Entry<String, List<String>> c : success.entrySet()) {
            Cli.Run run = json(c.getValue());
            assertThat(run.code()).as(c.getKey() + ": " + run.err()).isZero();
            JsonNode a = answer(run);
            assertThat(a.path("command").asText()).isEqualTo(c.getKey());
            assertThat(a.has("error")).as(c.getKey() + " succeeded: no error").isFalse();
            assertThat(a.size()).as(c.getKey() + " gives figures beside command and exitCode: " + a).isGreaterThan(2);
        }

        for (Map.Entry<String, List<String>> c : failure.entrySet()) {
            Cli.Run run = json(c.getValue());
            assertThat(run.code()).as(c.getKey() + " fails").isNotZero();
            JsonNode a = answer(run);
            assertThat(a.path("command").asText()).isEqualTo(c.getKey());
            JsonNode error = a.path("error");
            assertThat(error.path("reason").asText()).as(c.getKey() + ": " + a).isNotEmpty();
            assertThat(error.path("message").asText()).as(c.getKey() + ": " + a).isNotEmpty();
            assertThat(error.path("exitCode").asInt(-1)).as(c.getKey()).isEqualTo(run.code());
            // A usage error picocli finds (an unknown option) answers in JSON too.
            List<String> unknown = new ArrayList<>(c.getValue());
            unknown.add("--no-such-option");
            Cli.Run usage = json(unknown);
            assertThat(usage.code()).isEqualTo(ExitCodes.USAGE);
            JsonNode u = answer(usage);
            assertThat(u.path("command").asText()).isEqualTo(c.getKey());
            assertThat(u.path("error").path("reason").asText()).isEqualTo("USAGE");
            assertThat(u.path("error").path("message").asText()).contains("--no-such-option");
        }
    }

    @Test
    void theFiguresAreTheCommandsOwn() throws Exception {
        Path dir = Cli.scratch("json-figures");
        String db = dir.resolve("t.db").toString();
        Path out = dir.resolve("dump");
        assertThat(Cli.run("create-table", "--sqlite", db, "--table", "things", "--key", "pk:S,sk:N").code()).isZero();
        JsonNode put = answer(json(List.of("put", "--sqlite", db, "--table", "things", "--item", ITEM,
                "--item", "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}")));
        assertThat(put.path("items").asLong()).isEqualTo(2);
        assertThat(put.path("table").asText()).isEqualTo("things");
        assertThat(put.path("backend").asText()).isEqualTo(db);

        JsonNode got = answer(json(List.of("get-item", "--sqlite", db, "--table", "things", "--key-json", KEY)));
        assertThat(got.path("item")).isEqualTo(MAPPER.readTree(ITEM));

        JsonNode exported = answer(json(List.of("export", "--sqlite", db, "--table", "things", "--out", out.toString())));
        assertThat(exported.path("items").asLong()).isEqualTo(2);
        assertThat(exported.path("format").asText()).isEqualTo("STILLPOINT");
        assertThat(exported.path("snapshot").path("marker").asText()).isNotEmpty();
        assertThat(exported.path("sha256").asText()).hasSize(64);
        assertThat(exported.path("manifest").asText()).isEqualTo(out.resolve("manifest.json").toString());
        assertThat(exported.path("dataFiles").get(0).asText()).isEqualTo(out.resolve("items.jsonl").toString());

        JsonNode restored = answer(json(List.of("restore", "--from", out.toString(), "--sqlite", db, "--table", "copy")));
        assertThat(restored.path("items").asLong()).isEqualTo(2);
        assertThat(restored.path("status").asText()).isEqualTo("ACTIVE");
        assertThat(restored.path("restoreSummary").path("restoreDateTime").asText()).isNotEmpty();
        // Issue 29: describe right after the restore counts what it restored (not 0 until a statistics pass).
        JsonNode described = answer(json(List.of("describe", "--sqlite", db, "--table", "copy")));
        assertThat(described.toString()).as("describe --json after a restore").contains("\"ItemCount\":2");
        assertThat(described.findValue("TableSizeBytes").asLong()).as("TableSizeBytes after a restore").isPositive();

        JsonNode listed = answer(json(List.of("list-tables", "--sqlite", db)));
        assertThat(listed.path("tables").toString()).isEqualTo("[\"copy\",\"things\"]");

        // A storage failure gives its own reason [D10]; one the command line names gives its exit code's name.
        JsonNode missing = answer(json(List.of("describe", "--sqlite", db, "--table", "nope")));
        assertThat(missing.path("error").path("reason").asText()).isEqualTo("TABLE_NOT_FOUND");
        assertThat(missing.path("error").path("message").asText()).contains("nope");
        JsonNode noItem = answer(json(List.of("get-item", "--sqlite", db, "--table", "things", "--key-json",
                "{\"pk\":{\"S\":\"zz\"},\"sk\":{\"N\":\"1\"}}")));
        assertThat(noItem.path("error").path("reason").asText()).isEqualTo("ITEM_NOT_FOUND");
        assertThat(noItem.path("error").path("exitCode").asInt()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);
        JsonNode badKey = answer(json(List.of("get-item", "--sqlite", db, "--table", "things", "--key-json", "{}")));
        assertThat(badKey.path("error").path("reason").asText()).isEqualTo("VALIDATION");
    }

    /** The subcommands as picocli's model holds them. */
    private static final class CommandLineNames {
        final List<String> all = new ArrayList<>(
                Cli.commandLine(new StringWriter(), new StringWriter()).getSubcommands().keySet());
    }
}

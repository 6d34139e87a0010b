package dev.stillpoint.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's "Embedding Stillpoint" example, compiled and run so it cannot rot: the lines between the
 * markers below must stand in README.md's example exactly (indentation aside), and they must work.
 */
class EmbeddingExampleTest {

    @Test
    void theReadmeExampleCompilesRunsAndIsTheOneInTheReadme(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("stillpoint.db");
        List<String> printed = new ArrayList<>();
        // README:begin
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file))) {
            TableOperations tables = storage.tables();
            tables.createTable(CreateTableRequest.builder("acct", "orders")
                    .partitionKey("customer", ScalarType.S)
                    .sortKey("placed", ScalarType.N)
                    .globalIndex("by_status", "status", ScalarType.S, Projection.all())
                    .build());
            TableWaiter.awaitActive(tables, "acct", "orders", Duration.ofSeconds(10));

            tables.putItem("acct", "orders", Item.of(Map.of(
                    "customer", AttributeValue.s("ada"),
                    "placed", AttributeValue.n("1700000000"),
                    "status", AttributeValue.s("shipped"))));

            try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot("acct", "orders")) {
                while (snapshot.items().hasNext()) {
                    StoredItem item = snapshot.items().next();
                    printed.add(item.json());
                }
            }
        }
        // README:end
        assertThat(printed).hasSize(1);
        assertThat(printed.get(0)).contains("\"customer\":{\"S\":\"ada\"}", "\"placed\":{\"N\":\"1700000000\"}",
                "\"status\":{\"S\":\"shipped\"}");
        List<String> example = between(Files.readAllLines(source()), "// README:begin", "// README:end");
        List<String> readme = between(Files.readAllLines(readme()), "// README:begin", "// README:end");
        assertThat(readme).as("README.md's embedding example is this test's, line for line").isEqualTo(example);
    }

    private static List<String> between(List<String> lines, String begin, String end) {
        List<String> out = new ArrayList<>();
        boolean inside = false;
        for (String line : lines) {
            if (line.strip().equals(end)) {
                break;
            }
            if (inside) {
                out.add(line.strip());
            }
            inside |= line.strip().equals(begin);
        }
        return out;
    }

    private static Path source() {
        return Path.of("src/test/java/dev/stillpoint/adapters/sqlite/EmbeddingExampleTest.java");
    }

    private static Path readme() {
        return Path.of("..", "README.md");
    }
}

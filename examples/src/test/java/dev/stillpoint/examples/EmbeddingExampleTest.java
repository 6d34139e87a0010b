package dev.stillpoint.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableSnapshot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
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
 * README's embedding examples, compiled and run so they cannot rot: each example is a source file of
 * this test (imports and all), and the fenced block after {@code <!-- example: File.java -->} in
 * README.md must be that file's lines from its first import to its end, exactly.
 */
class EmbeddingExampleTest {

    @Test
    void theSqliteExampleRunsAndIsTheOneInTheReadme(@TempDir Path dir) throws IOException {
        List<String> items = SqliteEmbedding.run(dir);
        assertThat(items).as("items the snapshot streamed after the delete").hasSize(1);
        assertThat(items.get(0)).contains("\"customer\":{\"S\":\"ada\"}", "\"placed\":{\"N\":\"1700000000\"}",
                "\"status\":{\"S\":\"shipped\"}");
        assertThat(dir.resolve("export/manifest.json")).as("the export's manifest").isRegularFile();
        assertThat(readmeBlock("SqliteEmbedding.java")).as("README.md's SQLite example is SqliteEmbedding.java")
                .isEqualTo(example("SqliteEmbedding.java"));
        assertThat(readmeBlock("SqliteEmbedding.java").size()).as("lines of the SQLite example").isLessThanOrEqualTo(40);
    }

    /** The PostgreSQL opening, on an embedded server: the same calls, and the drop waits for the snapshot [D5]. */
    @Test
    void thePostgresExampleOpensAStorageThatDoesTheSameAndIsTheOneInTheReadme(@TempDir Path dir) throws IOException {
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().setDataDirectory(Files.createTempDirectory("sp-example-pg"))
                .setCleanDataDirectory(true).start();
             var storage = PostgresEmbedding.open(server.getJdbcUrl("postgres", "postgres"), "postgres", "")) {
            var tables = storage.tables();
            tables.createTable(CreateTableRequest.builder("acct", "orders").partitionKey("customer", ScalarType.S).build());
            TableWaiter.awaitActive(tables, "acct", "orders", Duration.ofSeconds(10));
            tables.putItem("acct", "orders", Item.of(Map.of("customer", AttributeValue.s("ada"))));
            ExportResult export = TableExport.to(dir.resolve("a/new/dir")).run(storage, "acct", "orders");
            assertThat(export.items()).as("items exported").isEqualTo(1);
            List<String> items = new ArrayList<>();
            try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot("acct", "orders")) {
                assertThat(tables.deleteTable("acct", "orders").status()).isEqualTo(TableStatus.DELETING);
                snapshot.items().forEachRemaining(item -> items.add(item.json()));
                assertThat(tables.describeTable("acct", "orders").status()).as("held by the open snapshot")
                        .isEqualTo(TableStatus.DELETING);
            }
            assertThat(items).hasSize(1);
            TableWaiter.awaitDeleted(tables, "acct", "orders", Duration.ofSeconds(10));
            assertThatThrownBy(() -> tables.describeTable("acct", "orders")).isInstanceOfSatisfying(
                    StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        }
        assertThat(readmeBlock("PostgresEmbedding.java")).as("README.md's PostgreSQL example is PostgresEmbedding.java")
                .isEqualTo(example("PostgresEmbedding.java"));
    }

    /** The example file's lines from its first import on, trailing blanks dropped. */
    private static List<String> example(String file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("src/test/java/dev/stillpoint/examples", file));
        int first = 0;
        while (!lines.get(first).startsWith("import ")) {
            first++;
        }
        return trimEnd(lines.subList(first, lines.size()));
    }

    /** The fenced block after README.md's {@code <!-- example: file -->} line. */
    private static List<String> readmeBlock(String file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int marker = lines.indexOf("<!-- example: " + file + " -->");
        assertThat(marker).as("README.md marks the example " + file).isNotNegative();
        assertThat(lines.get(marker + 1)).isEqualTo("```java");
        int end = marker + 2;
        while (!lines.get(end).equals("```")) {
            end++;
        }
        return trimEnd(lines.subList(marker + 2, end));
    }

    private static List<String> trimEnd(List<String> lines) {
        List<String> out = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }
}

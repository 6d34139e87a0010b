package dev.stillpoint.adapters.sqlite.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.sqlcatalog.JooqBanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * jOOQ's start-up lines with the README's suggested binding (slf4j-simple, which this module's tests
 * carry), captured from a fresh JVM each time: jOOQ logs its logo and its dialect-version line once per
 * JVM, so a test inside a JVM that already opened a database could not see them [issue 29].
 */
class JooqLinesTest {

    /** Opens a database, creates a table (jOOQ renders and runs SQL), closes: what an embedder's start does. */
    public static void main(String[] args) {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(Paths.get(args[0])))) {
            storage.tables().createTable(CreateTableRequest.builder("acct", "things").partitionKey("pk", ScalarType.S).build());
        }
    }

    private static String stderrOfAnOpen(String name, String... properties) throws Exception {
        Path file = TestDatabases.newFile(name);
        Path stderr = Files.createTempFile(file.getParent(), "jooq-", ".txt");
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1"));
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), JooqLinesTest.class.getName(), file.toString()));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child ended").isTrue();
        String err = Files.readString(stderr);
        assertThat(p.exitValue()).as(err).isZero();
        return err;
    }

    @Test
    void theVersionLineTheLogoAndTheTipAreQuietByDefault() throws Exception {
        String err = stderrOfAnOpen("jooq-quiet");
        assertThat(err).as("jOOQ's dialect-version line on an open").doesNotContain("logVersionSupport")
                .doesNotContain("Database version is supported by dialect");
        assertThat(err).as("jOOQ's logo and tip").doesNotContain("@@@@@@@").doesNotContain("Tip of the day");
    }

    // The embedder's own value wins: the line comes back, which also shows this test can see it.
    @Test
    void anEmbedderWhoAsksForTheVersionLineGetsIt() throws Exception {
        String err = stderrOfAnOpen("jooq-asked", "-D" + JooqBanner.VERSION_LINE + "=INFO");
        assertThat(err).as("the version line asked for").contains("Database version is supported by dialect SQLDialect.SQLITE");
    }
}

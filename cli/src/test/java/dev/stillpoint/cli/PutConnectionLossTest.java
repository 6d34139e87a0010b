package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * [X4, R6] A put of a file whose connection is lost mid-way says where to resume, in one line. Found from outside:
 * a PostgreSQL restart during {@code put --item-file} of 300,000 items ended the command with exit 1 after 14,634
 * items were written, saying neither how many were written nor at which line it stopped, and HikariCP's warning
 * printed a 40-line stack trace on stderr above the command's line. Here the server ends the connection itself,
 * at the fourth item (a trigger calls {@code pg_terminate_backend} on its own session), in a child JVM, so
 * stderr holds what a user sees.
 */
class PutConnectionLossTest {

    @Test
    void x4_aLostConnectionNamesTheLineAndTheItemsWrittenBeforeIt() throws Exception {
        String url = CliPg.newDatabase("lost", "pw");
        Cli.Run created = Cli.run("create-table", "--postgres", url, "--table", "lost", "--key", "pk:S");
        assertThat(created.code()).as(created.err()).isZero();
        String relation;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT relation_name FROM sp_tables WHERE table_name = 'lost'")) {
                assertThat(rs.next()).as("the table's catalog row").isTrue();
                relation = rs.getString(1);
            }
            s.execute("CREATE FUNCTION cut_here() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF NEW.item LIKE '%cut-here%' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;"
                    + " RETURN NEW; END $$");
            s.execute("CREATE TRIGGER cut_here BEFORE INSERT OR UPDATE ON \"" + relation
                    + "\" FOR EACH ROW EXECUTE FUNCTION cut_here()");
        }
        Path dir = Cli.scratch("put-connection-loss");
        Path input = dir.resolve("items.jsonl");
        Files.writeString(input, String.join("\n", List.of("{\"pk\":{\"S\":\"a\"}}", "{\"pk\":{\"S\":\"b\"}}",
                "{\"pk\":{\"S\":\"c\"}}", "{\"pk\":{\"S\":\"d\"},\"v\":{\"S\":\"cut-here\"}}", "{\"pk\":{\"S\":\"e\"}}")) + "\n");

        ChildCli.Run put = ChildCli.run(dir, List.of("-Xmx128m"), null, "put", "--postgres", url, "--table", "lost",
                "--item-file", input.toString());

        assertThat(put.exit()).as("exit code; stderr: %s", put.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(put.err()).as("the one line of the failure")
                .contains("stillpoint put: " + input + " line 4 (3 items before it written): ", "57P01",
                        "[ServiceUnavailable]");
        assertThat(put.err().lines()).as("stderr: the command's line, no dependency's warning and no stack trace")
                .noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by") || l.contains("com.zaxxer"))
                .filteredOn(l -> l.startsWith("stillpoint put: ")).hasSize(1);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + relation + "\"")) {
            rs.next();
            assertThat(rs.getLong(1)).as("the items before line 4 are written, the rest are not").isEqualTo(3);
        }

        Cli.Run json = Cli.run("put", "--postgres", url, "--table", "lost", "--item-file", input.toString(), "--json");
        assertThat(json.out()).as("--json gives the count written before the failure")
                .contains("\"items\":3", "\"exitCode\":1", "line 4 (3 items before it written)");
    }
}

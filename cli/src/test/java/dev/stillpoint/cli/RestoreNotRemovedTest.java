package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * [E5] A restore whose load fails and whose table then cannot be removed says both, and that the table stays.
 * Found from outside: a restore into a SQLite file on a full disk ended "deleting table 'bankcopy': SQLITE_FULL",
 * the load's own failure lost and the table left CREATING without a word. Here a PostgreSQL trigger refuses
 * every change of the new table's status and its deletion, so its completion fails, and so does its removal.
 */
class RestoreNotRemovedTest {

    private static final long GENEROUS_SECONDS = 120;

    @Test
    void e5_aRestoreWhoseTableCannotBeRemovedNamesBothFailuresAndLeavesTheTableCreating() throws Exception {
        Path dir = Cli.scratch("restore-not-removed");
        String source = dir.resolve("source.db").toString();
        ExportBackendsTest.load("--sqlite", source);
        Path export = dir.resolve("export");
        Cli.Run exported = Cli.run("export", "--sqlite", source, "--table", "things", "--out", export.toString());
        assertThat(exported.code()).as(exported.err()).isZero();

        String url = CliPg.newDatabase("not_removed", "pw");
        assertThat(Cli.run("list-tables", "--postgres", url).code()).as("an empty catalog").isNotZero();
        assertThat(Cli.run("migrate", "--postgres", url).code()).isZero();
        freezeVictim(url);

        Cli.Run restore = Cli.run("restore", "--from", export.toString(), "--postgres", url, "--table", "victim");

        assertThat(restore.code()).as(restore.err()).isEqualTo(ExitCodes.RESTORE_NOT_REMOVED);
        assertThat(restore.err()).as("why the restore stopped, why the table stayed, and until when")
                .contains("restore into 'victim' stopped: ", "; removing the table failed too: ",
                        "frozen by the test", "it stays CREATING until a command that writes");
        assertThat(restore.err().lines()).as("one line, each failure typed: %s", restore.err()).singleElement()
                .asString().contains(": removing the catalog row: ").endsWith("60 s old");
        requireStayed(url);
    }

    // The same when SIGTERM interrupts the restore: the shutdown hook says it in one line, not a stack trace.
    @Test
    void e5_aRestoreInterruptedWhoseTableCannotBeRemovedSaysSoInOneLine() throws Exception {
        Path export = RestoreSignalsTest.export();
        String url = CliPg.newDatabase("not_removed_term", "pw");
        assertThat(Cli.run("migrate", "--postgres", url).code()).isZero();
        freezeVictim(url);
        Path stderr = Files.createTempFile(export.getParent(), "stderr-", ".txt");
        Process p = PausedCommand.start(200, stderr, "restore", "--from", export.toString(), "--postgres", url,
                "--table", "victim", "--batch", "100");
        String line = PausedCommand.firstLine(p, GENEROUS_SECONDS);
        assertThat(line).as("the child paused (stderr: %s)", Files.readString(stderr)).isEqualTo("PAUSED 200");

        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(143);
        assertThat(Files.readString(stderr).lines()).singleElement().asString()
                .startsWith("stillpoint restore: interrupted; removing table 'victim' failed: ")
                .contains("frozen by the test", "it stays CREATING until a command that writes");
        requireStayed(url);
    }

    /** A trigger refusing every change of table 'victim''s status and its deletion. */
    private static void freezeVictim(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE FUNCTION refuse_victim() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " RAISE EXCEPTION 'the catalog row of victim is frozen by the test'; END $$");
            s.execute("CREATE TRIGGER refuse_victim BEFORE UPDATE OF status OR DELETE ON sp_tables FOR EACH ROW"
                    + " WHEN (OLD.table_name = 'victim') EXECUTE FUNCTION refuse_victim()");
        }
    }

    /** The trigger dropped, table 'victim' is still there, CREATING, as the message said. */
    private static void requireStayed(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER refuse_victim ON sp_tables");
        }
        Cli.Run describe = Cli.run("describe", "--postgres", url, "--table", "victim");
        assertThat(describe.out()).as("the table stayed, as said").contains("\"TableStatus\" : \"CREATING\"");
    }
}

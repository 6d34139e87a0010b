package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code delete-table --wait}: a DELETING table is dropped by the control-plane passes of an opening that writes,
 * so a command that answers DELETING at once leaves it for the next one. Found from outside (PostgreSQL: an export
 * holding the table, delete-table, then only read-only commands): the table stayed DELETING for as long as it was
 * watched (220 s) after the reader had gone, though the help said "DELETING until its readers finish".
 */
class DeleteTableWaitTest {

    @Test
    void aWaitingDeleteTableFailsNamingTheHolderAtItsDeadlineAndDropsOnceNothingHoldsIt() throws Exception {
        String url = CliPg.newDatabase("delwait", "pw");
        assertThat(Cli.run("create-table", "--postgres", url, "--table", "things", "--key", "pk:S").code()).isZero();
        Matcher id = Pattern.compile("\"TableId\"\\s*:\\s*\"([a-z0-9]+)\"")
                .matcher(Cli.run("describe", "--postgres", url, "--table", "things").out());
        assertThat(id.find()).isTrue();
        try (Connection reader = DriverManager.getConnection(url)) {
            reader.setAutoCommit(false);
            try (Statement s = reader.createStatement()) {
                s.execute("SELECT count(*) FROM d_" + id.group(1));
            }
            Cli.Run atOnce = Cli.run("delete-table", "--postgres", url, "--table", "things");
            assertThat(atOnce.code()).as(atOnce.err()).isZero();
            assertThat(atOnce.out()).contains("is DELETING");
            Cli.Run waited = Cli.run("delete-table", "--postgres", url, "--table", "things", "--wait", "1");
            assertThat(waited.code()).as("[D5] the reader still holds it").isEqualTo(ExitCodes.STORAGE_ERROR);
            assertThat(waited.err()).contains("still DELETING after 1 s");
            reader.rollback();
        }
        Cli.Run dropped = Cli.run("delete-table", "--postgres", url, "--table", "things", "--wait", "30");
        // A write command waits (up to 30 s) for its opening's startup recovery, which drops the table the reader
        // no longer holds before the command's own DeleteTable runs (then TableNotFound, exit 3); past that wait
        // the command's DeleteTable drops it (exit 0). Either way the table is gone, never left DELETING.
        assertThat(dropped.code()).as(dropped.err()).isIn(ExitCodes.OK, ExitCodes.TABLE_NOT_FOUND);
        if (dropped.code() == ExitCodes.OK) {
            assertThat(dropped.out()).contains("is deleted");
        }
        assertThat(Cli.run("describe", "--postgres", url, "--table", "things").code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        assertThat(Cli.run("delete-table", "--postgres", url, "--table", "things", "--wait=-1").code())
                .isEqualTo(ExitCodes.USAGE);
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * [E5] A restore is a real process here ({@link PausedCommand} as main, stopped once 200 of 1000 items are
 * in): SIGTERM and SIGINT remove the half-loaded table at once and say so; nothing of it is left.
 */
class RestoreSignalsTest {

    private static final long GENEROUS_SECONDS = 120;

    static Path export() {
        Path dir = Cli.scratch("restore-signals");
        Path db = dir.resolve("src.db");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S,sk:N").code()).isZero();
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
            for (int i = 0; i < 1000; i++) {
                storage.tables().putItem(StorageCommand.DEFAULT_ACCOUNT, "things", Item.of(Map.of(
                        "pk", AttributeValue.s("p" + (i % 10)), "sk", AttributeValue.n(Integer.toString(i)))));
            }
        }
        Path out = dir.resolve("export");
        assertThat(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString()).code()).isZero();
        return out;
    }

    private static void interrupted(String signal, int exit) throws Exception {
        Path export = export();
        Path target = export.getParent().resolve("target.db");
        Path stderr = Files.createTempFile(export.getParent(), "stderr-", ".txt");
        Process p = PausedCommand.start(200, stderr, "restore", "--from", export.toString(), "--sqlite", target.toString(),
                "--table", "copy", "--batch", "100");
        String line = PausedCommand.firstLine(p, GENEROUS_SECONDS);
        assertThat(line).as("the child paused (stderr: %s)", Files.readString(stderr)).isEqualTo("PAUSED 200");
        assertThat(Cli.run("describe", "--sqlite", target.toString(), "--table", "copy").out())
                .as("mid-way the table is there, CREATING").contains("\"TableStatus\" : \"CREATING\"")
                .contains("\"RestoreInProgress\" : true");

        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(exit);
        assertThat(Files.readString(stderr).lines()).singleElement().asString()
                .isEqualTo("stillpoint restore: interrupted; table 'copy' removed");
        Cli.Run tables = Cli.run("list-tables", "--sqlite", target.toString());
        assertThat(tables.code()).as(tables.err()).isZero();
        assertThat(tables.out()).doesNotContain("copy");
    }

    @Test
    void e5_sigtermMidRestoreRemovesTheTable() throws Exception {
        interrupted("TERM", 143);
    }

    @Test
    void e5_sigintMidRestoreRemovesTheTable() throws Exception {
        SigintDisposition.requireSigintDeliveredToChildren();
        interrupted("INT", 130);
    }
}

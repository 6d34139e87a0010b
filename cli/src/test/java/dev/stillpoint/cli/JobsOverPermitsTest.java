package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.domain.snapshot.HolderKind;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code -j N} above what the backend grants [B3, B2, D7], on the embedded PostgreSQL, which the command line opens
 * with a pool of 10 connections: 5 snapshot permits, and 5 COPY writers per restore.
 *
 * <p>{@code export -j N} needs N permits at once: more than are free is refused whole (exit 6, LimitExceeded),
 * naming N, the free permits and who holds the others, with no output and no permit kept, so the next export runs.
 * {@code restore -j N} is not refused: it loads at most as many files at once as the backend takes writers, and its
 * summary says so.
 */
class JobsOverPermitsTest {

    /** Snapshot permits, and restore writers, of an engine over the command line's pool of 10. */
    private static final int PERMITS = 5;

    // [B3, D7] export -j 6 with 5 permits: exit 6 naming both numbers and that no wait helps, nothing written (no
    // directory made; an existing one left empty, DynamoDB's data/ included), no session left on the server; then
    // -j 1 and -j 5 (every permit) export.
    @Test
    void anExportAskingMoreSegmentsThanPermitsIsRefusedNamingBothAndLeavesNothing() throws Exception {
        String source = CliPg.newDatabase("over_permits", "pw");
        ExportJobsTest.load("--postgres", source);
        Path dir = Cli.scratch("jobs-over-permits");
        Path out = dir.resolve("out");

        Cli.Run refused = export(source, out, "-j", "6");

        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.SLOTS_FULL);
        assertThat(refused.err()).as("the refusal")
                .contains("a snapshot of 6 segments needs 6 permits, 5 are free (none held)")
                .contains("this engine has 5 snapshot permits in all").contains("ask for at most 5")
                .doesNotContain("held by table snapshots");
        assertThat(out).as("the output directory of a refused export").doesNotExist();

        Path existing = Files.createDirectories(dir.resolve("existing"));
        Cli.Run json = export(source, existing, "-j", "6", "--format", "dynamodb", "--json");
        assertThat(json.code()).as(json.err()).isEqualTo(ExitCodes.SLOTS_FULL);
        JsonNode error = new ObjectMapper().readTree(json.out()).path("error");
        assertThat(error.path("reason").asText()).isEqualTo("LIMIT_EXCEEDED");
        assertThat(error.path("exitCode").asInt()).isEqualTo(ExitCodes.SLOTS_FULL);
        assertThat(error.path("message").asText()).contains("needs 6 permits, 5 are free");
        try (Stream<Path> left = Files.list(existing)) {
            assertThat(left).as("what a refused export left in a directory that was there").isEmpty();
        }
        assertThat(otherSessions(source)).as("sessions the refused exports left on the server").isZero();

        Cli.Run one = export(source, dir.resolve("one"));
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("exported 240 items");
        Cli.Run all = export(source, out, "-j", Integer.toString(PERMITS));
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("exported 240 items").contains("5 data files (one per segment)");
    }

    // [B2, D7] on one engine: with 3 of its 5 permits held by backups, export -j 3 is refused naming 2 free and the
    // holders, and -j 6 naming the engine's 5; neither takes a permit. Once they are back, -j 5 and -j 1 export on the
    // same engine and give every permit back.
    @Test
    void onOneEngineARefusedSegmentedExportTakesNoPermitAndTheNextOnesRun() throws Exception {
        String source = CliPg.newDatabase("over_held", "pw");
        ExportJobsTest.load("--postgres", source);
        Path dir = Cli.scratch("jobs-over-held");
        try (PostgresStorage storage = PostgresStorage.open(PostgresConfig.shared(
                new PostgresConfig.Database(source, null, null)))) {
            PermitLedger permits = storage.snapshotPermits();
            assertThat(permits.capacity()).as("permits of the command line's pool").isEqualTo(PERMITS);
            for (int i = 0; i < 3; i++) {
                permits.acquire(HolderKind.BACKUP);
            }

            Cli.Run three = exportWith(storage, source, dir.resolve("three"), "-j", "3");
            assertThat(three.code()).as(three.err()).isEqualTo(ExitCodes.SLOTS_FULL);
            assertThat(three.err()).contains("a snapshot of 3 segments needs 3 permits, 2 are free (3 held by backups)")
                    .contains("close an open snapshot or retry later");
            assertThat(permits.inUse()).as("permits out after a refused -j 3").isEqualTo(3);
            Cli.Run six = exportWith(storage, source, dir.resolve("six"), "-j", "6");
            assertThat(six.code()).as(six.err()).isEqualTo(ExitCodes.SLOTS_FULL);
            assertThat(six.err()).contains("needs 6 permits, 2 are free (3 held by backups)")
                    .contains("this engine has 5 snapshot permits in all");
            assertThat(permits.inUse()).as("permits out after a refused -j 6").isEqualTo(3);
            for (Path refused : List.of(dir.resolve("three"), dir.resolve("six"))) {
                try (Stream<Path> left = Files.list(refused)) {
                    assertThat(left).as("files a refused export left in %s", refused).isEmpty();
                }
            }

            for (int i = 0; i < 3; i++) {
                permits.release(HolderKind.BACKUP);
            }
            Cli.Run all = exportWith(storage, source, dir.resolve("all"), "-j", Integer.toString(PERMITS));
            assertThat(all.code()).as(all.err()).isZero();
            Cli.Run one = exportWith(storage, source, dir.resolve("one"), "-j", "1");
            assertThat(one.code()).as(one.err()).isZero();
            assertThat(permits.inUse()).as("permits out once the exports ended").isZero();
        }
    }

    // [B3] restore -j 64 of an 8-file export onto PostgreSQL: not refused. It loads 5 files at once (the writers the
    // backend takes: half the pool), says so, holds every item, and leaves no session on the server.
    @Test
    void aRestoreAskingMoreWritersThanTheBackendTakesLoadsWithItsWritersAndSaysSo() throws Exception {
        Path dir = Cli.scratch("restore-over-writers");
        Path db = dir.resolve("t.db");
        ExportJobsTest.load("--sqlite", db.toString());
        Path eight = dir.resolve("eight");
        Cli.Run exported = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", eight.toString(),
                "-j", "8");
        assertThat(exported.code()).as(exported.err()).isZero();
        Path single = dir.resolve("single");
        assertThat(Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", single.toString()).code())
                .isZero();
        String target = CliPg.newDatabase("over_writers", "pw");

        Cli.Run restored = Cli.run("restore", "--from", eight.toString(), "--postgres", target, "--table", "copy",
                "-j", "64");

        assertThat(restored.code()).as(restored.err()).isZero();
        assertThat(restored.out()).contains("restored 240 items into table 'copy' (ACTIVE)")
                .contains("8 data files, loaded 5 at once (-j 64; PostgreSQL takes 5 writers at once)");
        assertThat(otherSessions(target)).as("sessions the restore left on the server").isZero();
        Path back = dir.resolve("back");
        Cli.Run again = Cli.run("export", "--postgres", target, "--table", "copy", "--out", back.toString());
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(Files.readAllLines(back.resolve("items.jsonl")))
                .containsExactlyInAnyOrderElementsOf(Files.readAllLines(single.resolve("items.jsonl")));
    }

    private static Cli.Run export(String source, Path out, String... more) {
        return Cli.run(Stream.concat(Stream.of("export", "--postgres", source, "--table", "things", "--out",
                out.toString()), Stream.of(more)).toArray(String[]::new));
    }

    /** The export command with {@code more}, run on {@code storage}'s engine (its permits), as the command runs it. */
    private static Cli.Run exportWith(PostgresStorage storage, String source, Path out, String... more) {
        StringWriter stdout = new StringWriter();
        StringWriter stderr = new StringWriter();
        CommandLine cli = Cli.commandLine(stdout, stderr);
        CommandLine.ParseResult parsed = cli.parseArgs(Stream.concat(Stream.of("export", "--postgres", source,
                "--table", "things", "--out", out.toString()), Stream.of(more)).toArray(String[]::new));
        int code = ((ExportCommand) parsed.subcommand().commandSpec().userObject()).exportWith(storage.snapshots());
        return new Cli.Run(code, stdout.toString(), stderr.toString());
    }

    /**
     * Sessions on {@code url}'s database other than this one, once those of a closed engine are gone: the server
     * ends a session shortly after its client closes it, so this polls (up to 10 s) for none.
     */
    private static long otherSessions(String url) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            while (true) {
                long n;
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
                    rs.next();
                    n = rs.getLong(1);
                }
                if (n == 0 || System.nanoTime() - deadline > 0) {
                    return n;
                }
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
        }
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * [E1] An export is a real process here (this module's classpath, {@link PausedCommand} as main, which runs
 * the export command and stops after item {@value #PAUSE_AFTER} of {@value #ITEMS}, its temp file open):
 * SIGTERM and SIGINT remove the temp files and print one line; kill -9 leaves them, and the next export
 * into the directory removes them (but never those of an export still running).
 */
class ExportSignalsTest {

    private static final int ITEMS = 3000;
    private static final int PAUSE_AFTER = 2500;
    private static final long GENEROUS_SECONDS = 120;

    private static Path db;

    @BeforeAll
    static void database() throws Exception {
        Path dir = Cli.scratch("signals");
        db = dir.resolve("signals.db");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S,sk:N").code()).isZero();
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
            for (int i = 0; i < ITEMS; i++) {
                storage.tables().putItem(StorageCommand.DEFAULT_ACCOUNT, "things", Item.of(Map.of(
                        "pk", AttributeValue.s("p" + (i % 10)), "sk", AttributeValue.n(Integer.toString(i)),
                        "v", AttributeValue.s("value of item " + i + " padded to be a few dozen bytes"))));
            }
        }
    }

    /** A forked export into {@code out}, paused mid-way (its "PAUSED" line read); stderr goes to a file. */
    private record Forked(Process process, BufferedReader stdout, Path stderrFile) {
        /** Its stderr, once it has exited (Process.destroy closes the pipes, so stderr is a file). */
        String stderr() throws IOException {
            return Files.readString(stderrFile);
        }
    }

    private static Forked pausedExport(Path out) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), PausedCommand.class.getName(), Integer.toString(PAUSE_AFTER),
                "export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString()));
        Path stderr = Files.createTempFile(out.getParent(), "stderr-", ".txt");
        Process p = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (IOException e) {
                return "(stdout unreadable: " + e + ")";
            }
        }).get(GENEROUS_SECONDS, TimeUnit.SECONDS);
        assertThat(line).as("the child paused (stderr: %s)", Files.readString(stderr)).isEqualTo("PAUSED " + PAUSE_AFTER);
        return new Forked(p, stdout, stderr);
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static List<String> temps(Path dir) throws IOException {
        return files(dir).stream().filter(n -> n.startsWith(".items.jsonl-") && n.endsWith(".tmp")).toList();
    }

    private static void assertInterruptedCleanly(Forked f, Path out, int expectedExit) throws Exception {
        assertThat(f.process().waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.process().exitValue()).isEqualTo(expectedExit);
        String err = f.stderr();
        assertThat(err.lines()).singleElement().asString()
                .isEqualTo("stillpoint export: interrupted; removed 1 temporary file from " + out + ", no manifest written");
        assertThat(files(out)).as("no temp file, no manifest, no data file").isEmpty();
    }

    @Test
    void e1_sigtermMidExportRemovesTheTempFileAndSaysSo() throws Exception {
        Path out = Cli.scratch("sigterm");
        Forked f = pausedExport(out);
        List<String> during = temps(out);
        assertThat(during).as("mid-way: the temp file is there").hasSize(1);
        assertThat(during.get(0)).startsWith(".items.jsonl-" + f.process().pid() + "-");
        assertThat(Files.size(out.resolve(during.get(0)))).as("part of the items already written").isPositive();

        f.process().destroy(); // SIGTERM

        assertInterruptedCleanly(f, out, 143);
    }

    @Test
    void e1_sigintMidExportRemovesTheTempFileAndSaysSo() throws Exception {
        SigintDisposition.requireSigintDeliveredToChildren();
        Path out = Cli.scratch("sigint");
        Forked f = pausedExport(out);
        assertThat(temps(out)).hasSize(1);

        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(f.process().pid())).inheritIO().start();
        assertThat(kill.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();

        assertInterruptedCleanly(f, out, 130);
    }

    @Test
    void e1_killMinusNineLeavesTempFilesTheNextExportRemoves() throws Exception {
        Path out = Cli.scratch("sigkill");
        Forked killed = pausedExport(out);
        List<String> left = temps(out);
        assertThat(left).hasSize(1);
        killed.process().destroyForcibly(); // SIGKILL: no hook runs
        assertThat(killed.process().waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(killed.stderr()).isEmpty();
        assertThat(temps(out)).as("kill -9 leaves the temp file").isEqualTo(left);

        Cli.Run next = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString());

        assertThat(next.code()).as(next.err()).isZero();
        assertThat(next.err().lines()).singleElement().asString()
                .isEqualTo("stillpoint export: removed 1 stale temporary file of an interrupted export from "
                        + out + ": " + left.get(0));
        assertThat(files(out)).containsExactly("items.jsonl", "manifest.json");
        assertThat(Files.readAllLines(out.resolve("items.jsonl"))).hasSize(ITEMS);
    }

    @Test
    void e1_anExportNeverRemovesTheTempFilesOfAnExportStillRunning() throws Exception {
        Path out = Cli.scratch("live");
        Forked live = pausedExport(out);
        List<String> liveTemps = temps(out);
        assertThat(liveTemps).hasSize(1);
        try {
            Cli.Run next = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString());

            assertThat(next.code()).as(next.err()).isZero();
            assertThat(next.err()).isEmpty();
            assertThat(files(out)).containsExactly(liveTemps.get(0), "items.jsonl", "manifest.json");
        } finally {
            live.process().destroy();
        }
        assertThat(live.process().waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(files(out)).containsExactly("items.jsonl", "manifest.json");
    }
}

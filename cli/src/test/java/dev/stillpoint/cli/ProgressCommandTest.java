package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Progress through the real command line [X2]: a test has no terminal, so export, restore and the
 * restore's check print plain lines on stderr (every --progress-interval; 0 here, so each update is
 * due and no test waits on a clock); --quiet prints none. Also the export's help and file mode (issue 29).
 */
class ProgressCommandTest {

    private static final Pattern RESTORED = Pattern.compile("stillpoint: restoring copy: ([0-9,]+) of 60 items \\(([0-9]+)%\\)");

    private static Path tableOf60(Path dir) {
        Path db = dir.resolve("t.db");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S").code()).isZero();
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            lines.append("{\"pk\":{\"S\":\"k").append(i).append("\"}}\n");
        }
        Cli.Run put = Cli.runWithStdin(lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "put", "--sqlite", db.toString(), "--table", "things", "--item-file", "-");
        assertThat(put.code()).as(put.err()).isZero();
        return db;
    }

    @Test
    void exportCheckAndRestoreShowPlainLinesInAPipeAndNoneWhenQuiet() throws Exception {
        Path dir = Cli.scratch("progress");
        Path db = tableOf60(dir);
        Path out = dir.resolve("dump");
        Cli.Run export = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", out.toString(),
                "--progress-interval", "0");
        assertThat(export.code()).as(export.err()).isZero();
        assertThat(export.err().lines()).as("a line per item at interval 0, then the closing one").hasSize(61)
                .allMatch(l -> l.startsWith("stillpoint: exporting things (each item checked): "));
        // Issue 29: SQLite counts the snapshot in its read transaction, so the export has an exact total (the
        // table's ItemCount is still 0 here: no statistics pass has run since the puts).
        assertThat(export.err().lines().toList().get(29)).as("half-way, with the snapshot's count")
                .contains(": 30 of 60 items (50%), ").doesNotContain("about");
        assertThat(export.err().lines().toList().get(60)).contains(": 60 of 60 items (100%), ").contains("done in");

        Cli.Run restore = Cli.run("restore", "--from", out.toString(), "--sqlite", db.toString(), "--table", "copy",
                "--batch", "10", "--progress-interval", "0");
        assertThat(restore.code()).as(restore.err()).isZero();
        List<String> lines = restore.err().lines().toList();
        assertThat(lines).filteredOn(l -> l.startsWith("stillpoint: checking " + out + ": ")).as("the check's lines")
                .hasSize(61).last().asString().contains("60 of 60 items (100%)").contains("done in");
        List<Long> counts = new ArrayList<>();
        for (String l : lines) {
            Matcher m = RESTORED.matcher(l);
            if (m.find()) {
                counts.add(Long.parseLong(m.group(1).replace(",", "")));
                assertThat(Long.parseLong(m.group(2))).isEqualTo(counts.get(counts.size() - 1) * 100 / 60);
            }
        }
        assertThat(counts).as("a line per batch of 10, then the closing one").containsExactly(10L, 20L, 30L, 40L, 50L, 60L, 60L);
        assertThat(lines.get(lines.size() - 1)).contains("done in");

        Cli.Run quiet = Cli.run("restore", "--from", out.toString(), "--sqlite", db.toString(), "--table", "copy2",
                "--batch", "10", "--progress-interval", "0", "--quiet");
        assertThat(quiet.code()).as(quiet.err()).isZero();
        assertThat(quiet.err()).as("--quiet").isEmpty();
        Cli.Run quietExport = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                dir.resolve("dump2").toString(), "--progress-interval", "0", "--quiet");
        assertThat(quietExport.err()).isEmpty();
        // The default interval (5 s) is longer than this work: nothing in a pipe.
        Cli.Run usual = Cli.run("restore", "--from", out.toString(), "--sqlite", db.toString(), "--table", "copy3");
        assertThat(usual.err()).isEmpty();

        assertThat(Cli.run("restore", "--from", out.toString(), "--sqlite", db.toString(), "--table", "copy4",
                "--progress-interval", "-1").code()).isEqualTo(ExitCodes.USAGE);

        // The files are 0600 whatever the umask, as export --help says (issue 29).
        for (String file : new String[] {"items.jsonl", "manifest.json"}) {
            assertThat(Files.getPosixFilePermissions(out.resolve(file))).as(file)
                    .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        }
    }

    @Test
    void helpTextsListTheirExitCodesInOrder() {
        String export = Cli.run("export", "--help").out();
        assertThat(export.indexOf("  8   ")).as(export).isPositive().isLessThan(export.indexOf("  9   "));
        assertThat(export).contains("mode 0600").contains("--quiet").contains("--progress-interval");
        String create = Cli.run("create-table", "--help").out();
        assertThat(create).containsPattern("(?m)^ +4 +database file");
    }
}

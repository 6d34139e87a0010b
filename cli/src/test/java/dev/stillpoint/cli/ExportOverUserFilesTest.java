package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * [E2] An export never replaces a file it did not write. Found from outside: {@code export --out DIR} into a
 * directory holding the user's own {@code items.jsonl} (no manifest beside it) exited 0 and replaced the file with
 * the table's items: the export renames its finished files onto their names. Now a directory holding any name an
 * export gives its files, in either layout, with {@code -j} or {@code --since}, is refused with exit 5 naming
 * it, and the file is left as it was; a directory of other files is still written into, and no file of the
 * user's is taken for an interrupted export's temp file and removed.
 */
class ExportOverUserFilesTest {

    @Test
    void e2_aFileOfANameTheExportWritesIsNamedAndLeftAlone() throws Exception {
        Path dir = Cli.scratch("export-over-user-files");
        Path db = ExportCheckTest.database(dir);
        List<List<String>> cases = List.of(
                List.of("items.jsonl"),
                List.of("items-00001.jsonl", "-j", "2"),
                List.of("manifest-files.json", "--format", "dynamodb"),
                List.of("manifest-summary.checksum", "--format", "dynamodb"),
                List.of("changes.jsonl"));
        for (List<String> c : cases) {
            String name = c.get(0);
            Path out = Files.createDirectories(dir.resolve("out-" + name));
            Path mine = Files.writeString(out.resolve(name), "the user's own notes\n");
            List<String> args = new ArrayList<>(List.of("export", "--sqlite", db.toString(), "--table",
                    "things", "--out", out.toString()));
            args.addAll(c.subList(1, c.size()));

            Cli.Run run = Cli.run(args.toArray(String[]::new));

            assertThat(run.code()).as("%s: %s", name, run.err()).isEqualTo(ExitCodes.OUTPUT);
            assertThat(run.err()).as(name).contains("already holds " + name + ", a name an export gives one of its files");
            assertThat(Files.readString(mine)).as("%s is as it was", name).isEqualTo("the user's own notes\n");
            try (var left = Files.list(out)) {
                assertThat(left.map(p -> p.getFileName().toString())).as("nothing written beside %s", name)
                        .containsExactly(name);
            }
        }

        // Other files stay, hidden ones that end like a temp file included: the sweep of an interrupted export's
        // temp files removed any '.<name>-<digits>.tmp', whatever the name, and so '.draft-2024.tmp' too.
        List<String> theirs = List.of("notes.txt", ".draft-2024.tmp", ".draft-999999999-1.tmp");
        for (String format : List.of("stillpoint", "dynamodb")) {
            Path others = Files.createDirectories(dir.resolve("out-others-" + format));
            Path data = Files.createDirectories(others.resolve("data"));
            for (String name : theirs) {
                Files.writeString(others.resolve(name), "kept\n");
                Files.writeString(data.resolve(name), "kept\n");
            }
            Cli.Run beside = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out",
                    others.toString(), "--format", format);
            assertThat(beside.code()).as(beside.err()).isZero();
            assertThat(beside.err()).as(format).doesNotContain("removed");
            for (String name : theirs) {
                assertThat(Files.readString(others.resolve(name))).as("%s: %s", format, name).isEqualTo("kept\n");
                assertThat(Files.readString(data.resolve(name))).as("%s: data/%s", format, name).isEqualTo("kept\n");
            }
            assertThat(others.resolve(format.equals("stillpoint") ? "manifest.json" : "manifest-summary.json")).exists();
        }
    }
}

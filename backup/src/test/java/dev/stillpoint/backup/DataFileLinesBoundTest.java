package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * [E3, S7, R6] A data file's lines are read with a bound: a line longer than {@link DataFileLines#MAX_LINE_CHARS}
 * (more than any item DynamoDB accepts takes as JSON) is refused as the file's content, naming the file and the
 * line, and is not held whole; the lines after it are still counted and digested, so the manifest's count and
 * checksum are compared as for any other file. Found from outside: a gzipped data file of one 600 MB line (600 KB
 * on disk) made restore hold 2.3 GB of memory before it said the line was not JSON. Lines end as
 * {@code BufferedReader.readLine} ends them.
 */
class DataFileLinesBoundTest {

    @TempDir
    Path dir;

    private static void writeGzip(Path file, String... parts) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16);
             Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            for (String part : parts) {
                w.write(part);
            }
        }
    }

    private static DataFileLines.FileDigest read(Path file, List<String> handed) {
        return DataFileLines.read(file, false, "MD5", (text, line) -> handed.add(line + ":" + text.length()));
    }

    @Test
    void e3_aLineOverTheBoundIsRefusedByItsNumberAndTheLinesAfterItAreStillCounted() throws IOException {
        Path file = dir.resolve("bomb.json.gz");
        String over = "a".repeat(DataFileLines.MAX_LINE_CHARS + 1);
        writeGzip(file, "{}\n", over, "\n", "{\"x\":1}\n");
        List<String> handed = new ArrayList<>();
        DataFileLines.FileDigest digest = read(file, handed);
        assertThat(digest.lines()).as("[E3] every line counted, the long one too").isEqualTo(3);
        assertThat(handed).as("the line before it handed over; after the first bad line, lines are counted only")
                .containsExactly("1:2");
        assertThat(digest.firstBadLine()).as("[R6] refused by its place").isNotNull();
        assertThat(digest.firstBadLine().getMessage()).contains("bomb.json.gz line 2 is longer than "
                + DataFileLines.MAX_LINE_CHARS + " characters");
        assertThat(digest.firstBadLine().problem()).as("[V5] the input's content, exit 12")
                .isEqualTo(BackupFailure.Problem.ITEM);
        assertThat(digest.endsMidLine()).isFalse();
        assertThatThrownBy(digest::requireItems).isSameAs(digest.firstBadLine());
    }

    @Test
    void e3_aLineOfExactlyTheBoundIsHandedOverWhole_evenWithoutALineBreakAtTheEnd() throws IOException {
        Path file = dir.resolve("edge.json.gz");
        writeGzip(file, "b".repeat(DataFileLines.MAX_LINE_CHARS));
        List<String> handed = new ArrayList<>();
        DataFileLines.FileDigest digest = read(file, handed);
        assertThat(handed).containsExactly("1:" + DataFileLines.MAX_LINE_CHARS);
        assertThat(digest.firstBadLine()).isNull();
        assertThat(digest.endsMidLine()).as("no line break at the end: cut short").isTrue();
    }

    @Test
    void linesEndAtALineFeedACarriageReturnOrBoth_asReadLineEndsThem() throws IOException {
        Path file = dir.resolve("ends.jsonl");
        Files.writeString(file, "a\r\nbb\rccc\n\ndddd\n");
        List<String> handed = new ArrayList<>();
        DataFileLines.FileDigest digest = read(file, handed);
        assertThat(handed).containsExactly("1:1", "2:2", "3:3", "4:0", "5:4");
        assertThat(digest.lines()).isEqualTo(5);
        assertThat(digest.firstBadLine()).isNull();
    }

    @Test
    void aCarriageReturnAndLineFeedEndOneLineWhereverTheReadsSplitThem() throws IOException {
        Path file = dir.resolve("split.jsonl");
        // The reader takes 64 Ki characters at a time: the CR is the last of the first read, the LF the first of the next.
        Files.writeString(file, "a".repeat((1 << 16) - 1) + "\r\nx\n");
        List<String> handed = new ArrayList<>();
        read(file, handed);
        assertThat(handed).containsExactly("1:" + ((1 << 16) - 1), "2:1");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // without the check the read never ends
    void e3_aDataFileThatIsNotARegularFileIsRefusedBeforeItIsRead() throws IOException {
        Path link = dir.resolve("items.jsonl");
        Files.createSymbolicLink(link, Path.of("/dev/zero"));
        // Found from outside: an export's items.jsonl linked to /dev/zero kept restore reading until it was killed.
        assertThatThrownBy(() -> read(link, new ArrayList<>())).isInstanceOfSatisfying(BackupFailure.class, e -> {
            assertThat(e.problem()).isEqualTo(BackupFailure.Problem.FORMAT);
            assertThat(e.getMessage()).contains("items.jsonl is not a regular file");
        });
    }
}

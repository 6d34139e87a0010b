package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * [X4] {@code put --item-file} holds one line in memory, not the input: a 40 MB JSON lines file, from a file and
 * from stdin, goes in through a CLI whose heap is 32 MB. Found from outside: {@code put} of a large file read it
 * whole, kept every decoded item, and ended in an OutOfMemoryError's stack trace with nothing written (80 MB
 * under a 64 MB heap). Each item is still checked before the first is written (ItemsFromFilesTest), now by a
 * first reading of the input; stdin is copied to a private temporary file for the second, removed afterwards.
 */
class LargeItemFileTest {

    private static final int ITEMS = 2_000;

    @Test
    void x4_aFileLargerThanTheHeapIsPutALineAtATime() throws Exception {
        Path dir = Cli.scratch("large-item-file");
        Path db = dir.resolve("t.db");
        Cli.Run created = Cli.run("create-table", "--sqlite", db.toString(), "--table", "fat", "--key", "pk:S,sk:N");
        assertThat(created.code()).as(created.err()).isZero();
        Path input = dir.resolve("fat.jsonl");
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            String payload = "x".repeat(20_000);
            for (int i = 0; i < ITEMS; i++) {
                w.write("{\"pk\":{\"S\":\"k" + i + "\"},\"sk\":{\"N\":\"" + i + "\"},\"v\":{\"S\":\"" + payload + "\"}}\n");
            }
        }
        assertThat(Files.size(input)).as("the input is larger than the child's heap").isGreaterThan(40_000_000L);

        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        ChildCli.Run fromFile = child(tmp, null, "put", "--sqlite", db.toString(), "--table", "fat", "--item-file", input.toString());
        assertThat(fromFile.exit()).as("exit code; stderr: %s", fromFile.err()).isZero();
        assertThat(fromFile.out()).as("from a file").contains("put 2000 items into 'fat'");
        ChildCli.Run fromStdin = child(tmp, input, "put", "--sqlite", db.toString(), "--table", "fat", "--item-file", "-");
        assertThat(fromStdin.exit()).as("exit code; stderr: %s", fromStdin.err()).isZero();
        assertThat(fromStdin.out()).as("from stdin").contains("put 2000 items into 'fat'");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("stillpoint-put-")))
                    .as("stdin's copy is removed").isEmpty();
        }

        Cli.Run last = Cli.run("get-item", "--sqlite", db.toString(), "--table", "fat", "--key-json",
                "{\"pk\":{\"S\":\"k1999\"},\"sk\":{\"N\":\"1999\"}}");
        assertThat(last.code()).as(last.err()).isZero();
        assertThat(last.out()).contains("\"k1999\"");

        // A key is read to 1 MB and no further: the same 40 MB as a key file is refused, not read into the heap.
        ChildCli.Run key = child(tmp, input, "get-item", "--sqlite", db.toString(), "--table", "fat", "--key-file", "-");
        assertThat(key.exit()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(key.err()).contains("stdin holds over 1048576 bytes: no key is that long").doesNotContain("OutOfMemoryError");
    }

    /** Runs the CLI in a child JVM with a 32 MB heap and {@code tmp} as its temporary directory. */
    private static ChildCli.Run child(Path tmp, Path stdin, String... args) throws Exception {
        return ChildCli.run(tmp.getParent(), List.of("-Xmx32m", "-Djava.io.tmpdir=" + tmp), stdin, args);
    }
}

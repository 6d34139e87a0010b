package dev.stillpoint.adapters.cassandra.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The test node keeps to its folder under target/: its command line points java.io.tmpdir and
 * jna.tmpdir there, the native libraries it unpacks land there, and nothing of the kind appears in
 * /tmp or ~/.cache since it started. Reports its RSS (ps).
 */
class NodeTest {

    static final Pattern NATIVE = Pattern.compile("(?i).*(lz4|jna|snappy|zstd|sigar|chronicle|jffi|netty|cassandra).*");

    @Test
    void theNodeKeepsItsFilesInItsOwnFolder() throws IOException {
        CassandraNode.Contact contact = CassandraNode.shared();
        Assumptions.assumeTrue(contact.started().isPresent(), "the cluster is an outside one");
        CassandraNode.Started node = contact.started().get();
        Path build = Path.of(Optional.ofNullable(System.getenv("STILLPOINT_BUILD_DIR")).orElse("target")).toAbsolutePath();
        assertThat(node.folder()).startsWith(build);

        // /proc/<pid>/cmdline: ProcessHandle.Info drops arguments past the kernel's first page.
        List<String> arguments = List.of(Files.readString(Path.of("/proc", Long.toString(node.pid()), "cmdline")).split("\0"));
        Path tmp = node.folder().resolve("tmp");
        assertThat(arguments).contains("-Djava.io.tmpdir=" + tmp, "-Djna.tmpdir=" + tmp);
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.toList()).as("the native libraries the node unpacked are in its own tmp folder").isNotEmpty();
        }
        assertThat(newNativeFiles(Path.of("/tmp"), node)).as("nothing of the node's kind new in /tmp").isEmpty();
        assertThat(newNativeFiles(Path.of(System.getProperty("user.home"), ".cache"), node))
                .as("nothing of the node's kind new in ~/.cache").isEmpty();

        long rss = node.rssKiB();
        assertThat(rss).as("ps reports the node's RSS").isPositive();
        System.out.println("[cassandra-node] started in " + node.startTime().toMillis() + " ms; RSS now " + rss
                + " KiB (ps), peak " + node.peakRssKiB() + " KiB");
    }

    private static List<Path> newNativeFiles(Path dir, CassandraNode.Started node) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        FileTime since = FileTime.from(node.startedAt());
        try (Stream<Path> walk = Files.walk(dir, 2)) {
            return walk.filter(p -> NATIVE.matcher(p.getFileName().toString()).matches())
                    .filter(p -> {
                        try {
                            return Files.getLastModifiedTime(p).compareTo(since) >= 0;
                        } catch (IOException e) {
                            return false;
                        }
                    }).toList();
        } catch (java.io.UncheckedIOException e) {
            return List.of();   // another process's file vanished during the walk
        }
    }
}

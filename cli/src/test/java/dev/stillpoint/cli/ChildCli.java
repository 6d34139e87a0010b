package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The CLI in a child JVM, as a user runs it: its own heap, temporary directory and stderr, where the
 * dependencies' logging lands too (an in-process run sees only what the command itself prints).
 */
final class ChildCli {

    /** The longest a child may take: generous, for a busy machine. */
    static final long GENEROUS_SECONDS = 180;

    /** A child's exit code, stdout and stderr (the first 2,000 characters of each). */
    record Run(int exit, String out, String err) {
    }

    private ChildCli() {
    }

    /**
     * Runs the CLI with {@code args} in a child JVM with {@code jvm} options, its stdout and stderr kept in files
     * under {@code dir}, {@code stdin} (when not null) as its standard input.
     */
    static Run run(Path dir, List<String> jvm, Path stdin, String... args) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = Files.createTempFile(dir, "stderr-", ".txt");
        Path stdout = Files.createTempFile(dir, "stdout-", ".txt");
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StillpointCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile()).redirectOutput(stdout.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin.toFile());
        }
        Process p = builder.start();
        boolean ended = p.waitFor(GENEROUS_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly(); // a hung child must not outlive the test
        }
        assertThat(ended).as("the child ended within %d s", GENEROUS_SECONDS).isTrue();
        return new Run(p.exitValue(), head(stdout), head(stderr));
    }

    private static String head(Path file) throws Exception {
        String text = Files.readString(file);
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }
}

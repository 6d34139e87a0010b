package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a child process of this JVM can be interrupted by SIGINT. A process started with SIGINT
 * ignored (a shell's {@code cmd &} without job control, {@code nohup ... &}, {@code trap '' INT})
 * passes the ignore on to every child it starts, and the JVM installs no handler for a signal it
 * inherited ignored: a forked CLI then never sees the {@code kill -INT} a test sends, and the test
 * would wait out its whole bound before failing on something else. Read from the kernel's
 * {@code SigIgn} mask in {@code /proc/self/status} (bit 2 - 1 for signal 2).
 */
final class SigintDisposition {

    private static final long SIGINT_BIT = 1L << (2 - 1);
    private static final Path STATUS = Path.of("/proc/self/status");

    private SigintDisposition() {
    }

    /**
     * Fails at once, naming the cause, when this JVM (and so any child it forks) ignores SIGINT. Where
     * the kernel shows no {@code /proc} (not Linux) there is nothing to read and the test goes on.
     */
    static void requireSigintDeliveredToChildren() throws IOException {
        Optional<Long> ignored = ignoredMask();
        if (ignored.isEmpty()) {
            return;
        }
        assertThat(ignored.get() & SIGINT_BIT)
                .as("this test JVM was started with SIGINT ignored (/proc/self/status SigIgn = %s, bit 0x2 set),"
                        + " e.g. by `nohup ... &` or `cmd &` in a script or `trap '' INT`; the forked CLI inherits"
                        + " the ignore and would never see the test's kill -INT. Run the build in the foreground, or"
                        + " from a shell where SIGINT is not ignored", Long.toHexString(ignored.get()))
                .isZero();
    }

    /** The SigIgn mask of this process, or empty when there is no /proc to read it from. */
    static Optional<Long> ignoredMask() throws IOException {
        if (!Files.isReadable(STATUS)) {
            return Optional.empty();
        }
        return Files.readAllLines(STATUS).stream()
                .filter(l -> l.startsWith("SigIgn:"))
                .map(l -> Long.parseUnsignedLong(l.substring("SigIgn:".length()).trim(), 16))
                .findFirst();
    }
}

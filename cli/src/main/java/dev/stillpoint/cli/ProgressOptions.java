package dev.stillpoint.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --quiet} and {@code --progress-interval}, mixed into the commands that show progress [X2]. */
final class ProgressOptions {

    @Option(names = "--quiet", description = "Show no progress.")
    boolean quiet;

    @Option(names = "--progress-interval", paramLabel = "SECONDS", defaultValue = "5",
            description = "Without a terminal: seconds between two progress lines on stderr (default: ${DEFAULT-VALUE});"
                    + " on a terminal a bar is redrawn in place.")
    double intervalSeconds;

    /** The display for one piece of work; {@code total} -1 when unknown. */
    Progress progress(PrintWriter err, String label, long total, boolean estimate) {
        if (!(intervalSeconds >= 0)) {
            throw new CliFailure(ExitCodes.USAGE, "--progress-interval must be 0 or more seconds, got " + intervalSeconds);
        }
        return new Progress(err, label, Progress.mode(quiet), total, estimate, System::nanoTime,
                (long) (intervalSeconds * 1e9));
    }
}

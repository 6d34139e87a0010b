package dev.stillpoint.cli;

import picocli.CommandLine.Option;

/** {@code --json}, mixed into every command [X3]: the answer as one JSON object on stdout. */
final class JsonOption {

    @Option(names = "--json",
            description = "Answer with one JSON object on stdout: the command, its figures, or"
                    + " {\"error\":{\"reason\",\"message\",\"exitCode\"}} (README, \"--json\").")
    boolean on;
}

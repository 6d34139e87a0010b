package dev.stillpoint.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.UUID;
import picocli.CommandLine;

/** Runs the command line in-process with captured output, and hands out scratch directories under target/. */
final class Cli {

    record Run(int code, String out, String err) {
    }

    private Cli() {
    }

    static Run run(String... args) {
        return runWithStdin(new byte[0], args);
    }

    /** Runs the command line with {@code stdin} as its standard input. */
    static Run runWithStdin(byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = commandLine(out, err);
        ((StillpointCommand) cli.getCommand()).in = new java.io.ByteArrayInputStream(stdin);
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static CommandLine commandLine(StringWriter out, StringWriter err) {
        CommandLine cli = StillpointCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli;
    }

    /** A fresh directory under the module's build directory. */
    static Path scratch(String name) {
        String build = System.getenv().getOrDefault("STILLPOINT_BUILD_DIR", "target");
        Path dir = Paths.get(build, "cli-tests", name + "-" + UUID.randomUUID());
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + dir, e);
        }
    }
}

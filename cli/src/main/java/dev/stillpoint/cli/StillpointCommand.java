package dev.stillpoint.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code stillpoint} command line: the main job ({@code demo}) and the tools to drive a database by hand. */
@Command(name = "stillpoint", mixinStandardHelpOptions = true, version = "stillpoint 0.1.0",
        description = "Stillpoint: the storage core of DynamoDB-compatible servers.",
        subcommands = {DemoCommand.class})
public final class StillpointCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StillpointCommand()).execute(args));
    }
}

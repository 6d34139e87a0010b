package dev.stillpoint.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * A real {@code stillpoint export} process that stops mid-way: {@code PausedExport N export ...} runs the
 * export command as {@link StillpointCommand#main} does, and after item N prints {@code PAUSED <N>} on
 * stdout and waits forever, its temp file half-written, for the test to signal or kill it.
 */
public final class PausedExport {

    private PausedExport() {
    }

    public static void main(String[] args) throws Exception {
        long pauseAfter = Long.parseLong(args[0]);
        String[] command = java.util.Arrays.copyOfRange(args, 1, args.length);
        CommandLine cli = new CommandLine(new StillpointCommand());
        CommandLine.ParseResult parsed = cli.parseArgs(command);
        ExportCommand export = (ExportCommand) parsed.subcommand().commandSpec().userObject();
        PrintStream out = System.out;
        CountDownLatch never = new CountDownLatch(1);
        export.pace = items -> {
            if (items == pauseAfter) {
                out.println("PAUSED " + items);
                out.flush();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        System.exit(cli.getExecutionStrategy().execute(parsed));
    }
}

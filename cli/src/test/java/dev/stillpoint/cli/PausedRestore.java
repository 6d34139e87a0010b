package dev.stillpoint.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * A real {@code stillpoint restore} process that stops mid-way: {@code PausedRestore N restore ...} runs the
 * restore command as {@link StillpointCommand#main} does, and once N items are written prints
 * {@code PAUSED <N>} on stdout and waits forever, its table half-loaded, for the test to signal it.
 */
public final class PausedRestore {

    private PausedRestore() {
    }

    public static void main(String[] args) throws Exception {
        long pauseAt = Long.parseLong(args[0]);
        String[] command = java.util.Arrays.copyOfRange(args, 1, args.length);
        CommandLine cli = new CommandLine(new StillpointCommand());
        CommandLine.ParseResult parsed = cli.parseArgs(command);
        RestoreCommand restore = (RestoreCommand) parsed.subcommand().commandSpec().userObject();
        PrintStream out = System.out;
        CountDownLatch never = new CountDownLatch(1);
        restore.pace = items -> {
            if (items == pauseAt) {
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

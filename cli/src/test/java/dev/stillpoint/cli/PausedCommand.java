package dev.stillpoint.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongConsumer;
import picocli.CommandLine;

/**
 * A real {@code stillpoint export} or {@code restore} process that stops mid-way: {@code PausedCommand N
 * export ...} (or {@code restore ...}) runs the command as {@link StillpointCommand#main} does, and once N
 * items are exported or written prints {@code PAUSED <N>} on stdout and waits forever, its temp file
 * half-written or its table half-loaded, for the test to signal or kill it.
 */
public final class PausedCommand {

    private PausedCommand() {
    }

    public static void main(String[] args) throws Exception {
        long pauseAt = Long.parseLong(args[0]);
        CommandLine cli = StillpointCommand.commandLine();
        CommandLine.ParseResult parsed = cli.parseArgs(Arrays.copyOfRange(args, 1, args.length));
        PrintStream out = System.out;
        CountDownLatch never = new CountDownLatch(1);
        LongConsumer pause = items -> {
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
        Object command = parsed.subcommand().commandSpec().userObject();
        if (command instanceof ExportCommand export) {
            export.pace = pause::accept;
        } else if (command instanceof RestoreCommand restore) {
            restore.pace = pause::accept;
        } else {
            throw new IllegalArgumentException("PausedCommand pauses export or restore, not " + args[1]);
        }
        System.exit(cli.getExecutionStrategy().execute(parsed));
    }
}

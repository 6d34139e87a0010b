package dev.stillpoint.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    /**
     * A child JVM running {@code PausedCommand pauseAt args...} on this test's class path, its stderr into
     * {@code stderr}; {@link #firstLine} then waits for its {@code PAUSED} line.
     */
    static Process start(long pauseAt, Path stderr, String... args) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), PausedCommand.class.getName(), Long.toString(pauseAt)));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    }

    /** The child's first line on stdout, read within {@code seconds} (a deadline, not a pause). */
    static String firstLine(Process child, long seconds) throws Exception {
        BufferedReader stdout = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (IOException e) {
                return "(stdout unreadable: " + e + ")";
            }
        }).get(seconds, TimeUnit.SECONDS);
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

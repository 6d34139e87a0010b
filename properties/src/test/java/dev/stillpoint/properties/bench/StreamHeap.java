package dev.stillpoint.properties.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The heap part of the snapshot benchmarks: each table drained as stored and decoded under a
 * {@link HeapWatch} in this JVM, and again in a child JVM whose whole heap is small (the bound itself).
 * The printed lines are the ones bench/run.sh reads.
 */
public final class StreamHeap {

    /** Reads the whole snapshot of {@code table} (decoded when {@code decode}) and returns the items read. */
    public interface Drain {
        long drain(String table, boolean decode) throws Exception;
    }

    private StreamHeap() {
    }

    /** Both tables drained as stored, then decoded, each under a heap watch: one line a drain. */
    public static void inThisJvm(Drain drain, String smallTable, int small, String table, int items) throws Exception {
        for (boolean decode : new boolean[] {false, true}) {
            for (String t : new String[] {smallTable, table}) {
                int expect = t.equals(table) ? items : small;
                HeapWatch w = new HeapWatch();
                long n;
                try (w) {
                    n = drain.drain(t, decode);
                }
                check(n, expect);
                System.out.printf(Locale.ROOT, "  %-8s %9s items: %s%n", decode ? "item()" : "json()",
                        String.format(Locale.ROOT, "%,d", expect), w.report());
            }
        }
    }

    /** The child JVM's part: one warm-up drain, then the table drained as stored and decoded, one line each. */
    public static void inChild(Drain drain, String table, int expect) throws Exception {
        drain.drain(table, false); // warm-up: classes loaded, JIT going
        for (boolean decode : new boolean[] {false, true}) {
            HeapWatch w = new HeapWatch();
            long start = System.nanoTime();
            long n;
            try (w) {
                n = drain.drain(table, decode);
            }
            check(n, expect);
            System.out.printf(Locale.ROOT, "child -Xmx%d MiB %-6s %9s items in %.2f s: %s%n",
                    Runtime.getRuntime().maxMemory() >> 20, decode ? "item()" : "json()",
                    String.format(Locale.ROOT, "%,d", expect), (System.nanoTime() - start) / 1e9, w.report());
        }
    }

    /**
     * Starts {@code main} in a child JVM with {@code -Xmx heapLimit}, {@code jvmFlags} and this JVM's
     * class path, with {@code args} (which make it call {@link #inChild}); prints its "child" lines
     * (every line when it failed) and whether the {@code expect} items completed.
     */
    public static void childJvm(String heapLimit, List<String> jvmFlags, Class<?> main, List<String> args, int expect)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heapLimit);
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        int rc = p.waitFor();
        for (String line : out.split("\n")) {
            if (line.startsWith("child") || rc != 0) {
                System.out.println("  " + line);
            }
        }
        System.out.printf(Locale.ROOT, "  %,d items with -Xmx%s: %s%n", expect, heapLimit,
                rc == 0 ? "completed" : "FAILED (exit " + rc + ")");
    }

    private static void check(long n, int expect) {
        if (n != expect) {
            throw new IllegalStateException("read " + n + " of " + expect);
        }
    }
}

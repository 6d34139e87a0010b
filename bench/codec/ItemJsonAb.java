package dev.stillpoint.bench;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.properties.bench.BenchItems;
import dev.stillpoint.properties.bench.Machine;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A/B of the hand-written DynamoDB JSON codec (domain.item.ItemJson, as it was before issue 13) and
 * the jackson-core one (itemjson.ItemJson), on the snapshot benchmarks' rows (BenchItems, ~407 B).
 * JMH-free: one JVM, both codecs warmed on every row first, then ROUNDS rounds in which each side
 * runs in turn over the same rows (A then B for decode, A then B for encode). Prints every round's
 * ns per item (wall and the thread's CPU) and the ratio B/A of items per second. The verdict is
 * the median per-round CPU ratio: on this shared 2-core machine wall time mostly measures the
 * scheduler whenever the load exceeds the cores, CPU time of the one measuring thread much less. Run by
 * bench/codec-ab.sh, which compiles the old codec from git history beside the new one.
 *
 * <p>Before measuring, it checks the two agree on every row: the same text, the same item.
 */
public final class ItemJsonAb {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ItemJsonAb() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Item> items = new ArrayList<>(rows);
        List<String> texts = new ArrayList<>(rows);
        long bytes = 0;
        for (int i = 0; i < rows; i++) {
            Item item = BenchItems.item(i);
            String text = dev.stillpoint.domain.item.ItemJson.encode(item);
            if (!text.equals(dev.stillpoint.itemjson.ItemJson.encode(item))
                    || !dev.stillpoint.itemjson.ItemJson.decode(text).equals(dev.stillpoint.domain.item.ItemJson.decode(text))) {
                throw new AssertionError("the codecs disagree on row " + i + ": " + text);
            }
            items.add(item);
            texts.add(text);
            bytes += text.length();
        }
        System.out.printf(Locale.ROOT, "rows: %,d (BenchItems 0..%d), %.0f chars per item on average; %d rounds; load %s%n",
                rows, rows - 1, (double) bytes / rows, rounds, Machine.loadAverage());

        Function<String, Item> decodeA = dev.stillpoint.domain.item.ItemJson::decode;
        Function<String, Item> decodeB = dev.stillpoint.itemjson.ItemJson::decode;
        Function<Item, String> encodeA = dev.stillpoint.domain.item.ItemJson::encode;
        Function<Item, String> encodeB = dev.stillpoint.itemjson.ItemJson::encode;
        for (int w = 0; w < 3; w++) { // warm-up: every row through both sides, three times
            run(texts, decodeA);
            run(texts, decodeB);
            run(items, encodeA);
            run(items, encodeB);
        }
        double[][] decode = new double[rounds][];
        double[][] encode = new double[rounds][];
        System.out.println("round | decode A hand-written ns/item wall (cpu) | decode B jackson | B/A items/s wall (cpu)"
                + " | encode A | encode B | B/A wall (cpu) | load");
        for (int r = 0; r < rounds; r++) {
            double[] da = run(texts, decodeA);
            double[] db = run(texts, decodeB);
            double[] ea = run(items, encodeA);
            double[] eb = run(items, encodeB);
            decode[r] = new double[] {da[0], da[1], db[0], db[1]};
            encode[r] = new double[] {ea[0], ea[1], eb[0], eb[1]};
            System.out.printf(Locale.ROOT, "%d | %.0f (%.0f) | %.0f (%.0f) | %.2f (%.2f) | %.0f (%.0f) | %.0f (%.0f) | %.2f (%.2f) | %s%n",
                    r + 1, da[0], da[1], db[0], db[1], da[0] / db[0], da[1] / db[1],
                    ea[0], ea[1], eb[0], eb[1], ea[0] / eb[0], ea[1] / eb[1], Machine.loadAverage());
        }
        summary("decode", decode);
        summary("encode", encode);
    }

    private static void summary(String what, double[][] rounds) {
        double[] ratioWall = Arrays.stream(rounds).mapToDouble(r -> r[0] / r[2]).sorted().toArray();
        double[] ratioCpu = Arrays.stream(rounds).mapToDouble(r -> r[1] / r[3]).sorted().toArray();
        double bestA = Arrays.stream(rounds).mapToDouble(r -> r[0]).min().orElseThrow();
        double bestB = Arrays.stream(rounds).mapToDouble(r -> r[2]).min().orElseThrow();
        System.out.printf(Locale.ROOT, "%s: best ns/item A %.0f, B %.0f; B/A items/s best-of %.2f, per round median %.2f"
                        + " (range %.2f-%.2f), cpu median %.2f -> %s%n", what, bestA, bestB, bestA / bestB,
                ratioWall[ratioWall.length / 2], ratioWall[0], ratioWall[ratioWall.length - 1],
                ratioCpu[ratioCpu.length / 2], ratioCpu[ratioCpu.length / 2] >= 1.0 ? "jackson-core faster" : "hand-written faster");
    }

    /** ns per element, wall and this thread's CPU, of {@code f} over every element. */
    private static <T, R> double[] run(List<T> in, Function<T, R> f) {
        long sink = 0;
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = 0; i < in.size(); i++) {
            sink += f.apply(in.get(i)).hashCode() & 1;
        }
        long wall = System.nanoTime() - t0;
        long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        if (sink == -1) {
            System.out.println(); // keeps the results alive
        }
        return new double[] {(double) wall / in.size(), (double) cpu / in.size()};
    }
}

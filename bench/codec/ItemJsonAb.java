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
 * A/B of DynamoDB JSON codecs on the snapshot benchmarks' rows (BenchItems, ~407 chars), issue 13:
 * A, the hand-written codec as it stood in domain (commit a36cad8); B, the jackson-core streaming
 * candidate (commit 0bd732a, package renamed to itemjson.jackson); C, item-json as it is now.
 * JMH-free: one JVM, every side warmed on every row three times, then ROUNDS rounds in which each
 * side runs in turn over the same rows. Prints every round's ns per item (wall, and the measuring
 * thread's CPU) and ratios of items per second. The verdict is the median per-round CPU ratio: on
 * this shared 2-core machine wall time mostly measures the scheduler whenever the load exceeds the
 * cores. Run by bench/codec-ab.sh, which takes A and B from git history.
 *
 * <p>Before measuring, it checks the three agree on every row: the same text, the same item.
 */
public final class ItemJsonAb {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String[] SIDES = {"A hand-written (a36cad8)", "B jackson-core (0bd732a)", "C item-json now"};

    private ItemJsonAb() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Function<String, Item>> decoders = List.of(dev.stillpoint.domain.item.ItemJson::decode,
                dev.stillpoint.itemjson.jackson.ItemJson::decode, dev.stillpoint.itemjson.ItemJson::decode);
        List<Function<Item, String>> encoders = List.of(dev.stillpoint.domain.item.ItemJson::encode,
                dev.stillpoint.itemjson.jackson.ItemJson::encode, dev.stillpoint.itemjson.ItemJson::encode);
        List<Item> items = new ArrayList<>(rows);
        List<String> texts = new ArrayList<>(rows);
        long chars = 0;
        for (int i = 0; i < rows; i++) {
            Item item = BenchItems.item(i);
            String text = encoders.get(0).apply(item);
            for (int side = 1; side < SIDES.length; side++) {
                if (!text.equals(encoders.get(side).apply(item)) || !decoders.get(side).apply(text).equals(item)) {
                    throw new AssertionError(SIDES[side] + " disagrees with A on row " + i + ": " + text);
                }
            }
            items.add(item);
            texts.add(text);
            chars += text.length();
        }
        System.out.printf(Locale.ROOT, "rows: %,d (BenchItems 0..%d), %.0f chars per item on average; %d rounds; load %s%n",
                rows, rows - 1, (double) chars / rows, rounds, Machine.loadAverage());
        for (int w = 0; w < 3; w++) {
            for (int side = 0; side < SIDES.length; side++) {
                run(texts, decoders.get(side));
                run(items, encoders.get(side));
            }
        }
        // [round][side] = {wall ns/item, cpu ns/item}
        double[][][] decode = new double[rounds][SIDES.length][];
        double[][][] encode = new double[rounds][SIDES.length][];
        System.out.println("round | decode ns/item wall (cpu): A | B | C | encode: A | B | C | load");
        for (int r = 0; r < rounds; r++) {
            for (int side = 0; side < SIDES.length; side++) {
                decode[r][side] = run(texts, decoders.get(side));
            }
            for (int side = 0; side < SIDES.length; side++) {
                encode[r][side] = run(items, encoders.get(side));
            }
            StringBuilder line = new StringBuilder().append(r + 1);
            for (double[][] kind : List.of(decode[r], encode[r])) {
                for (double[] side : kind) {
                    line.append(String.format(Locale.ROOT, " | %.0f (%.0f)", side[0], side[1]));
                }
            }
            System.out.println(line.append(" | ").append(Machine.loadAverage()));
        }
        for (int[] pair : new int[][] {{1, 0}, {2, 0}, {1, 2}}) {
            summary("decode", decode, pair[0], pair[1]);
            summary("encode", encode, pair[0], pair[1]);
        }
    }

    /** Items/s of side {@code x} over side {@code y}: per round (median, range), by CPU and by wall. */
    private static void summary(String what, double[][][] rounds, int x, int y) {
        double[] cpu = Arrays.stream(rounds).mapToDouble(r -> r[y][1] / r[x][1]).sorted().toArray();
        double[] wall = Arrays.stream(rounds).mapToDouble(r -> r[y][0] / r[x][0]).sorted().toArray();
        double median = cpu[cpu.length / 2];
        System.out.printf(Locale.ROOT, "%s %s / %s items/s: cpu median %.2f (range %.2f-%.2f); wall median %.2f"
                        + " (range %.2f-%.2f) -> %s faster%n", what, SIDES[x].substring(0, 1), SIDES[y].substring(0, 1),
                median, cpu[0], cpu[cpu.length - 1], wall[wall.length / 2], wall[0], wall[wall.length - 1],
                median >= 1.0 ? SIDES[x] : SIDES[y]);
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

package dev.stillpoint.properties.bench;

import static dev.stillpoint.properties.bench.Machine.loadAverage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The throughput part of the snapshot benchmarks: every scan once to warm up, then {@code runs}
 * rounds of all scans in turn (so a load change hits them alike), and each scan's best and median.
 */
public final class ScanRounds {

    /** One full read of the benchmark table; returns the number of items read. */
    public interface Scan {
        long run() throws Exception;
    }

    /** The figures of one timed scan, wall seconds first; fails when the scan did not read every item. */
    public interface Timer {
        double[] time(Scan scan) throws Exception;
    }

    /** Prints the figures of one scan's run in round {@code round}. */
    public interface RoundLine {
        void print(int round, String scan, double[] figures);
    }

    /** A scan's best and median wall seconds and its best CPU seconds over its runs. */
    public record Figures(double bestWall, double medianWall, double bestCpu) {

        /** The figures of {@code runs}, each run's CPU seconds taken by {@code cpu}. */
        public static Figures of(List<double[]> runs, ToDoubleFunction<double[]> cpu) {
            List<Double> wall = new ArrayList<>();
            List<Double> cpus = new ArrayList<>();
            for (double[] t : runs) {
                wall.add(t[0]);
                cpus.add(cpu.applyAsDouble(t));
            }
            wall.sort(Double::compare);
            cpus.sort(Double::compare);
            return new Figures(wall.get(0), wall.get(wall.size() / 2), cpus.get(0));
        }

        /** {best wall, median wall, best cpu} of items/s of this scan against {@code y}'s (time(y) / time(this)). */
        public double[] ratioTo(Figures y) {
            return new double[] {y.bestWall / bestWall, y.medianWall / medianWall, y.bestCpu / bestCpu};
        }
    }

    private ScanRounds() {
    }

    /** Warm-up, then the rounds; each scan's figures of every round, in the scans' order. */
    public static Map<String, List<double[]>> run(Map<String, Scan> scans, int runs, Timer timer, RoundLine line)
            throws Exception {
        System.out.println("load average before the runs: " + loadAverage());
        System.out.println("warm-up (one run each, not counted)");
        for (Scan scan : scans.values()) {
            timer.time(scan);
        }
        Map<String, List<double[]>> times = new LinkedHashMap<>();
        scans.keySet().forEach(k -> times.put(k, new ArrayList<>()));
        for (int r = 1; r <= runs; r++) {
            for (Map.Entry<String, Scan> e : scans.entrySet()) {
                double[] t = timer.time(e.getValue());
                times.get(e.getKey()).add(t);
                line.print(r, e.getKey(), t);
            }
        }
        return times;
    }

    /** Prints the summary line of one scan that ran. */
    public interface SummaryLine {
        void print(String label, List<double[]> runs, Figures figures);
    }

    /**
     * Each labelled scan's figures in the labels' order, its line printed by {@code line}; a scan that did
     * not run printed as its label padded to {@code width} and {@code missing}, and left out.
     */
    public static Map<String, Figures> summary(Map<String, String> labels, Map<String, List<double[]>> times,
                                               ToDoubleFunction<double[]> cpu, int width, String missing,
                                               SummaryLine line) {
        Map<String, Figures> figures = new LinkedHashMap<>();
        for (Map.Entry<String, String> label : labels.entrySet()) {
            List<double[]> runs = times.get(label.getKey());
            if (runs == null) {
                System.out.printf(java.util.Locale.ROOT, "%-" + width + "s %s%n", label.getValue(), missing);
                continue;
            }
            Figures f = Figures.of(runs, cpu);
            figures.put(label.getKey(), f);
            line.print(label.getValue(), runs, f);
        }
        return figures;
    }

    /** Figure {@code index} of every run, "%.3f" each, separated by spaces and ending in one. */
    public static String column(List<double[]> runs, int index) {
        StringBuilder all = new StringBuilder();
        for (double[] t : runs) {
            all.append(String.format(java.util.Locale.ROOT, "%.3f ", t[index]));
        }
        return all.toString();
    }
}

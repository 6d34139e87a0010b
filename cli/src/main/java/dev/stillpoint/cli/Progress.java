package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportReader;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.domain.table.TableDescription;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * Progress of long work (an export and the check of each item, a restore's check and its load) [X2],
 * on stderr: on a terminal a bar redrawn in place at most ten times a second with the count, the total,
 * the percentage, the rate and the time left; otherwise (a pipe, a log) one plain line every
 * {@code interval}, and a closing line when at least one was printed (work shorter than one interval
 * stays silent). {@code --quiet} prints nothing. The total is the manifests' count for a check, the
 * input's for a restore, and for an export the snapshot's exact count when its backend counts it
 * (SQLite, {@link #counted}), else the table's last counted ItemCount (DescribeTable's, an estimate:
 * "about"); past an estimate, or without one, no percentage or time left is shown.
 *
 * <p>Why not a progress-bar library: the one the issue names (me.tongfei:progressbar) is not among the
 * packages this build may take, and this needs a clock and an interval a test controls anyway.
 */
final class Progress implements ExportListener, TableRestore.Listener, ExportReader.CheckListener {

    /** How progress is shown. */
    enum Mode { BAR, LINES, QUIET }

    private static final long REDRAW_NANOS = 100_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final Mode mode;
    private final LongSupplier clock;
    private final long intervalNanos;
    private final long started;
    private long total;
    private boolean estimate;
    private long lastShown;
    private boolean shownAny;
    private int lastWidth;

    /**
     * @param err      where it is shown
     * @param label    what runs, e.g. "exporting orders"
     * @param mode     bar, lines or nothing
     * @param total    the total, or -1 when unknown
     * @param estimate whether the total is an estimate
     * @param clock    nanoseconds, as {@link System#nanoTime}
     * @param intervalNanos between two plain lines
     */
    Progress(PrintWriter err, String label, Mode mode, long total, boolean estimate, LongSupplier clock, long intervalNanos) {
        this.err = err;
        this.label = label;
        this.mode = mode;
        this.total = total;
        this.estimate = estimate;
        this.clock = clock;
        this.intervalNanos = intervalNanos;
        this.started = clock.getAsLong();
        this.lastShown = started;
    }

    /** The mode for this process: a bar when a terminal is attached (stdin and stdout: the JDK's test), else lines. */
    static Mode mode(boolean quiet) {
        return quiet ? Mode.QUIET : System.console() != null ? Mode.BAR : Mode.LINES;
    }

    /** The snapshot's exact count replaces the estimate the export began with. */
    @Override
    public void counted(long items) {
        total = items;
        estimate = false;
    }

    @Override
    public void exported(long items) {
        update(items);
    }

    @Override
    public void began(TableDescription table, long items) {
        total = items;
        estimate = false;
    }

    @Override
    public void restored(long items) {
        update(items);
    }

    @Override
    public void checked(long lines, long announced) {
        total = announced;
        estimate = false;
        update(lines);
        if (lines == announced) {
            finished(lines);
        }
    }

    @Override
    public void finished(long items) {
        long now = clock.getAsLong();
        if (mode == Mode.BAR) {
            draw(items, now, true);
        } else if (mode == Mode.LINES && shownAny) {
            line(items, now, true);
        }
    }

    /** {@code done} items so far: shown when its time has come. */
    void update(long done) {
        if (mode == Mode.QUIET) {
            return;
        }
        long now = clock.getAsLong();
        long every = mode == Mode.BAR ? REDRAW_NANOS : intervalNanos;
        if (now - lastShown < every) {
            return;
        }
        lastShown = now;
        if (mode == Mode.BAR) {
            draw(done, now, false);
        } else {
            line(done, now, false);
        }
    }

    private boolean knownTotal(long done) {
        return total > 0 && done <= total;
    }

    private void line(long done, long now, boolean last) {
        shownAny = true;
        StringBuilder text = new StringBuilder("stillpoint: ").append(label).append(": ");
        text.append(String.format("%,d", done));
        if (knownTotal(done)) {
            text.append(String.format(" of %s%,d items (%d%%)", estimate ? "about " : "", total, percent(done)));
        } else {
            text.append(done == 1 ? " item" : " items");
        }
        text.append(figures(done, now, last));
        err.println(text);
        err.flush();
    }

    private void draw(long done, long now, boolean last) {
        StringBuilder text = new StringBuilder(label).append(' ');
        if (knownTotal(done)) {
            int filled = (int) (WIDTH * done / total);
            text.append('[');
            for (int i = 0; i < WIDTH; i++) {
                text.append(i < filled ? '=' : i == filled && !last ? '>' : ' ');
            }
            text.append("] ");
            text.append(String.format("%3d%% %,d/%s%,d", percent(done), done, estimate ? "~" : "", total));
        } else {
            // No total: a count, not a bar that could not say how full it is.
            text.append(items(done));
        }
        text.append(figures(done, now, last));
        StringBuilder shown = new StringBuilder("\r").append(text);
        for (int i = text.length(); i < lastWidth; i++) {
            shown.append(' ');
        }
        lastWidth = text.length();
        err.print(shown);
        if (last) {
            err.println();
        }
        err.flush();
    }

    private static String items(long done) {
        return String.format("%,d item%s", done, done == 1 ? "" : "s");
    }

    private int percent(long done) {
        return (int) (100 * done / total);
    }

    /** The rate, and the time left (while running, with a total) or the time taken (at the end). */
    private String figures(long done, long now, boolean last) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        double rate = done / seconds;
        String figures = String.format(", %,.0f items/s", rate);
        if (last) {
            return figures + ", done in " + duration(seconds);
        }
        if (knownTotal(done) && rate > 0) {
            return figures + ", " + (estimate ? "about " : "") + duration((total - done) / rate) + " left";
        }
        return figures + ", " + duration(seconds) + " so far";
    }

    /** {@code 7 s}, {@code 3:05}, {@code 1:02:03}. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format("%d:%02d", s / 60, s % 60);
        }
        return String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}

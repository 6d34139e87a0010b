package dev.stillpoint.cli;

import dev.stillpoint.backup.TableRestore;

import dev.stillpoint.backup.ExportListener;

import java.io.PrintStream;

/**
 * A one-line progress display for a terminal: items written, the rate, and elapsed time, redrawn
 * in place at most ten times a second. The total is unknown up front (a snapshot's description
 * carries no counts [S2]), so it shows a moving marker rather than a percentage.
 */
final class ProgressBar implements ExportListener, TableRestore.Listener {
    private static final long INTERVAL_NANOS = 100_000_000L;
    private static final int WIDTH = 20;

    private final PrintStream err;
    private final String label;
    private final long started = System.nanoTime();
    private long lastDrawn = started;
    private int frame;
    private int lastWidth;

    ProgressBar(PrintStream err, String label) {
        this.err = err;
        this.label = label;
    }

    /** A progress bar on stderr when a terminal is attached, otherwise nothing. */
    static ExportListener forConsole(String label) {
        return System.console() != null ? new ProgressBar(System.err, label) : ExportListener.NONE;
    }

    /** A progress bar on stderr for a restore when a terminal is attached, otherwise nothing. */
    static TableRestore.Listener forConsoleRestore(String label) {
        return System.console() != null ? new ProgressBar(System.err, label) : TableRestore.Listener.NONE;
    }

    @Override
    public void restored(long items) {
        long now = System.nanoTime();
        if (now - lastDrawn >= INTERVAL_NANOS) {
            lastDrawn = now;
            draw(items, now, false);
        }
    }

    @Override
    public void exported(long items) {
        if ((items & 0xFF) != 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDrawn >= INTERVAL_NANOS) {
            lastDrawn = now;
            draw(items, now, false);
        }
    }

    @Override
    public void finished(long items) {
        draw(items, System.nanoTime(), true);
    }

    private void draw(long items, long now, boolean done) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        StringBuilder bar = new StringBuilder(WIDTH);
        int at = frame++ % WIDTH;
        for (int i = 0; i < WIDTH; i++) {
            bar.append(done ? '=' : i == at ? '>' : i < at ? '=' : ' ');
        }
        String text = String.format("%s [%s] %,d items  %,.0f items/s  %.1f s", label, bar, items,
                items / seconds, seconds);
        StringBuilder line = new StringBuilder("\r").append(text);
        for (int i = text.length(); i < lastWidth; i++) {
            line.append(' ');
        }
        lastWidth = text.length();
        err.print(line);
        if (done) {
            err.println();
        }
        err.flush();
    }
}

package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.StoredItem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a snapshot's items under a deadline [K4], on a worker thread, so a stream that never ends
 * fails the check in bounded time instead of hanging the test JVM. The failure names the stage and
 * how many items were read. A stream that failed keeps its own exception, with the stage and the
 * count attached as a suppressed note.
 */
public final class Drain {

    /** The deadline of every drain unless a check says otherwise. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(120);

    /**
     * The most items a drain reads: every kit table holds far fewer (a few thousand at most), so a stream
     * past it repeats items or never ends. Without it such a stream filled the heap before the deadline
     * (seen on a SQLite mutant whose keyset restarted every page), and the fork died with no named check.
     */
    public static final int MAX_ITEMS = 100_000;

    private Drain() {
    }

    /** Every remaining item, within {@link #DEFAULT_DEADLINE}. */
    public static List<StoredItem> all(ItemStream items, String stage) {
        return all(items, stage, DEFAULT_DEADLINE);
    }

    /** Every remaining item, within {@code deadline}. */
    public static List<StoredItem> all(ItemStream items, String stage, Duration deadline) {
        return read(items, Integer.MAX_VALUE, stage, deadline);
    }

    /** The next {@code n} items (fewer only when the stream ends first), within {@link #DEFAULT_DEADLINE}. */
    public static List<StoredItem> take(ItemStream items, int n, String stage) {
        return take(items, n, stage, DEFAULT_DEADLINE);
    }

    /** The next {@code n} items (fewer only when the stream ends first), within {@code deadline}. */
    public static List<StoredItem> take(ItemStream items, int n, String stage, Duration deadline) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot take " + n + " items");
        }
        return read(items, n, stage, deadline);
    }

    private static final class Reader implements Runnable {
        private final ItemStream items;
        private final int limit;
        private final List<StoredItem> read = new ArrayList<>();
        private volatile int count;
        private Throwable failure;
        private boolean overflowed;

        Reader(ItemStream items, int limit) {
            this.items = items;
            this.limit = limit;
        }

        @Override
        public void run() {
            try {
                while (read.size() < limit && items.hasNext()) {
                    if (read.size() == MAX_ITEMS) {
                        overflowed = true;
                        return;
                    }
                    read.add(items.next());
                    count = read.size();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }
    }

    private static List<StoredItem> read(ItemStream items, int limit, String stage, Duration deadline) {
        Reader reader = new Reader(items, limit);
        Thread worker = new Thread(reader, "kit-drain: " + stage);
        worker.setDaemon(true);
        worker.start();
        try {
            worker.join(Math.max(1, deadline.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(worker, items);
            throw new AssertionError("[K4] stage '" + stage + "': interrupted after " + reader.count + " items", e);
        }
        if (worker.isAlive()) {
            abandon(worker, items);
            throw new AssertionError("[K4] stage '" + stage + "': the stream did not "
                    + (limit == Integer.MAX_VALUE ? "end" : "yield " + limit + " items") + " within "
                    + deadline.toSeconds() + " s; " + reader.count + " items were read");
        }
        // join() returned with the worker gone: everything it wrote is visible here.
        if (reader.overflowed) {
            items.close();
            throw new AssertionError("[K4] stage '" + stage + "': the stream yielded more than " + MAX_ITEMS
                    + " items, more than any kit table holds: it repeats items or does not end");
        }
        if (reader.failure != null) {
            reader.failure.addSuppressed(new Exception("while reading stage '" + stage + "', after "
                    + reader.read.size() + " items"));
            if (reader.failure instanceof RuntimeException r) {
                throw r;
            }
            if (reader.failure instanceof Error e) {
                throw e;
            }
            throw new AssertionError("stage '" + stage + "' failed", reader.failure);
        }
        return List.copyOf(reader.read);
    }

    // A stuck fetch may hold the stream's monitor, so the close runs on its own daemon thread.
    private static void abandon(Thread worker, ItemStream items) {
        worker.interrupt();
        Thread closer = new Thread(items::close, "kit-drain-close");
        closer.setDaemon(true);
        closer.start();
    }
}

package dev.stillpoint.backup;

import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The export's two threads: the caller reads the snapshot and hands its items over here, in batches
 * of at most {@value #BATCH_ITEMS} items or about {@value #BATCH_CHARS} characters of JSON (bytes, where the
 * backend hands its stored bytes over; never fewer than the characters), through a
 * queue of {@value #DEPTH} batches; one writing thread checks, writes and digests them in order
 * ({@link Sink}). So reading overlaps checking and writing on a second core, and memory stays bounded by
 * a few batches whatever the table's size [S7]. The first failure of the writing thread stops the
 * reading at the next item and is thrown by {@link #finish}; {@link #abandon} stops the writing thread
 * when the reading fails.
 */
final class HandOff {
    static final int BATCH_ITEMS = 256;
    static final int BATCH_CHARS = 1 << 20;
    static final int DEPTH = 4;

    /** What the writing thread does with each item, in order, and once after the last one. */
    interface Sink {
        void accept(StoredItem item) throws IOException;

        void end() throws IOException;
    }

    private static final StoredItem[] END = new StoredItem[0];

    private final BlockingQueue<StoredItem[]> queue = new ArrayBlockingQueue<>(DEPTH);
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean abandoned;
    private StoredItem[] batch = new StoredItem[BATCH_ITEMS];
    private int filled;
    private long chars;

    HandOff(Sink sink) {
        this.thread = new Thread(() -> run(sink), "stillpoint-export-writer");
        thread.setDaemon(true); // a JVM stopped by a signal does not wait for it: ExportTemps removes its files
        thread.start();
    }

    /**
     * Hands one item over (from the reading thread).
     *
     * @return false once the writing thread has failed: stop reading, {@link #finish} throws its failure
     */
    boolean add(StoredItem item) throws InterruptedException {
        if (failure != null) {
            return false;
        }
        batch[filled++] = item;
        // The stored bytes' length where there are bytes: the text is not made here for its length.
        chars += item.storedBytes().map(b -> b.length).orElseGet(() -> item.json().length());
        if (filled == BATCH_ITEMS || chars >= BATCH_CHARS) {
            pass();
        }
        return true;
    }

    private void pass() throws InterruptedException {
        queue.put(filled == BATCH_ITEMS ? batch : java.util.Arrays.copyOf(batch, filled));
        batch = new StoredItem[BATCH_ITEMS];
        filled = 0;
        chars = 0;
    }

    /**
     * Hands the last batch over and waits until every item is written and the sink has ended the data.
     *
     * @throws IOException as the sink threw it; RuntimeException and Error likewise
     */
    void finish() throws IOException, InterruptedException {
        if (filled > 0 && failure == null) {
            pass();
        }
        queue.put(END);
        thread.join();
        Throwable t = failure;
        if (t instanceof IOException e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /** Stops the writing thread without ending the data, when reading failed; nothing once it has ended. */
    void abandon() {
        if (!thread.isAlive()) {
            return;
        }
        abandoned = true;
        thread.interrupt(); // wakes it from the queue or from a pause in a listener
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the writing thread still runs (for tests: an abandoned or finished hand-off leaves none). */
    boolean writing() {
        return thread.isAlive();
    }

    private void run(Sink sink) {
        try {
            StoredItem[] b;
            while (!abandoned && (b = queue.take()) != END) {
                if (failure == null) {
                    write(sink, b);
                } // after a failure batches are only taken, so the reader is never left blocked
            }
            if (!abandoned && failure == null) {
                sink.end();
            }
        } catch (InterruptedException e) {
            // abandon(): the reading failed and waits for this thread to end.
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void write(Sink sink, StoredItem[] items) {
        try {
            for (int i = 0; i < items.length && !abandoned; i++) {
                sink.accept(items[i]);
            }
        } catch (Throwable t) {
            failure = t;
        }
    }
}

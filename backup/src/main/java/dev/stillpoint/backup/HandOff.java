package dev.stillpoint.backup;

import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The export's threads behind its reader: the caller reads the snapshot and hands its items over here,
 * in batches of at most {@value #BATCH_ITEMS} items or about {@value #BATCH_CHARS} characters of JSON (bytes,
 * where the backend hands its stored bytes over; never fewer than the characters). Each batch is prepared
 * (checked and made into lines, {@link Sink#prepare}) on one of the hand-off's checking threads, several
 * batches at once where there are several, and written in the order it was read by one writing thread
 * ({@link Sink#write}). So reading, checking and writing overlap on every core, and memory stays bounded
 * by {@value #DEPTH} batches in flight whatever the table's size [S7]. The first failure of a checking or
 * the writing thread stops the reading at the next item and is thrown by {@link #finish}; {@link #abandon}
 * stops every thread when the reading fails.
 *
 * @param <P> a batch as prepared for writing
 */
final class HandOff<P> {
    static final int BATCH_ITEMS = 256;
    static final int BATCH_CHARS = 1 << 20;
    static final int DEPTH = 4;

    /** What the hand-off does with each batch: prepared on any checking thread, written in order on one thread. */
    interface Sink<P> {
        /**
         * Prepares one batch; called on a checking thread, possibly beside another batch's preparation, so it
         * keeps no state across calls but its own thread's.
         *
         * @param items the batch, in order
         * @param first the position of its first item in the stream, from 1
         */
        P prepare(StoredItem[] items, long first);

        /** Writes one prepared batch; called on the writing thread, batch after batch in the order they were read. */
        void write(P batch) throws IOException;

        /** Called once on the writing thread after the last batch is written, unless something failed. */
        void end() throws IOException;
    }

    private static final Future<Object> END = CompletableFuture.completedFuture(null);

    private final BlockingQueue<Future<?>> queue = new ArrayBlockingQueue<>(DEPTH);
    private final ExecutorService checking;
    private final Thread thread;
    private final Sink<P> sink;
    private volatile Throwable failure;
    private volatile boolean abandoned;
    private StoredItem[] batch = new StoredItem[BATCH_ITEMS];
    private int filled;
    private long chars;
    private long passed;

    /**
     * A hand-off to {@code sink} preparing batches on {@code checkers} threads.
     *
     * @param sink     what prepares and writes the batches
     * @param checkers how many batches may be prepared at once (at least 1)
     */
    HandOff(Sink<P> sink, int checkers) {
        if (checkers < 1) {
            throw new IllegalArgumentException("a hand-off needs at least one checking thread, not " + checkers);
        }
        this.sink = sink;
        AtomicInteger named = new AtomicInteger();
        this.checking = Executors.newFixedThreadPool(checkers, r -> daemon(r, "stillpoint-export-check-" + named.getAndIncrement()));
        this.thread = daemon(this::run, "stillpoint-export-writer");
        thread.start();
    }

    /**
     * Checking threads for each of {@code lanes} hand-offs: the machine's cores shared among them, at least one
     * each, and no more than {@value #DEPTH}, the batches in flight (a thread more would find no batch to check).
     */
    static int checkersPerLane(int lanes) {
        return Math.min(DEPTH, Math.max(1, Runtime.getRuntime().availableProcessors() / lanes));
    }

    /** A JVM stopped by a signal does not wait for the export's threads: ExportTemps removes its files. */
    private static Thread daemon(Runnable work, String name) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Hands one item over (from the reading thread).
     *
     * @return false once a checking or the writing thread has failed: stop reading, {@link #finish} throws its failure
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
        StoredItem[] items = filled == BATCH_ITEMS ? batch : Arrays.copyOf(batch, filled);
        long first = passed + 1;
        passed += filled;
        batch = new StoredItem[BATCH_ITEMS];
        filled = 0;
        chars = 0;
        queue.put(checking.submit(() -> sink.prepare(items, first)));
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
        // After a failure, batches taken unwritten may still be in preparation (a few at most): no thread of the
        // export outlives it.
        checking.shutdown();
        checking.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
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

    /** Stops every thread without ending the data, when reading failed; nothing once they have ended. */
    void abandon() {
        abandoned = true;
        checking.shutdownNow(); // interrupts a preparation in progress; the rest never start
        thread.interrupt(); // wakes the writer from the queue, a batch's preparation or a pause in a listener
        boolean interrupted = false;
        while (thread.isAlive() || !checking.isTerminated()) {
            try {
                thread.join();
                checking.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a thread of the hand-off still runs (for tests: an abandoned or finished hand-off leaves none). */
    boolean writing() {
        return thread.isAlive() || !checking.isTerminated();
    }

    private void run() {
        try {
            Future<?> next;
            while (!abandoned && (next = queue.take()) != END) {
                if (failure == null) {
                    write(next);
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

    @SuppressWarnings("unchecked") // every future but END is a prepare() of this sink
    private void write(Future<?> prepared) throws InterruptedException {
        try {
            sink.write((P) prepared.get());
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (InterruptedException e) {
            throw e;
        } catch (Throwable t) {
            failure = t;
        }
    }
}

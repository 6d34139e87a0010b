package dev.stillpoint.core.snapshot;

import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's page read-ahead: while a reader works through one page, the next is fetched on
 * another thread, so reading and the reader's own work (decoding, checking, writing) overlap
 * instead of taking turns. One fetch ahead per stream, never more, so a stream holds at most two
 * pages [S7]; the fetch is the lease's own, under its monitor, so a close still waits for it and
 * the page source is still called by one thread at a time.
 *
 * <p>Threads are daemons, made on demand and ended after a few idle seconds; there are at most as
 * many busy ones as streams reading, which the permits bound [D7]. Once the engine is closed, a
 * stream fetches each page on its reader's thread, as it would without read-ahead.
 */
final class PageReadAhead implements AutoCloseable {

    private static final AtomicInteger ENGINES = new AtomicInteger();

    /** Null when reading ahead is off ({@link ReadAhead#NONE}). */
    private final ThreadPoolExecutor threads;
    /** Set by {@link #close}: the engine is closed, its storage's connections going or gone. */
    private volatile boolean closed;

    PageReadAhead(ReadAhead mode) {
        if (mode == ReadAhead.NONE) {
            this.threads = null;
            return;
        }
        String name = "stillpoint-snapshot-read-ahead-" + ENGINES.incrementAndGet();
        AtomicInteger made = new AtomicInteger();
        // A hand-off queue: a fetch never waits behind another stream's, each gets a thread.
        this.threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + made.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts fetching the lease's next page; null when reading ahead is off or the engine is closed
     * (the reader then fetches it itself). The task refers to the lease and the budget only, never to the stream,
     * so a stream dropped while a fetch runs can still be reclaimed.
     */
    Future<Page> start(Lease lease, PageBudget budget) {
        if (threads == null) {
            return null;
        }
        try {
            return threads.submit(() -> lease.fetch(budget));
        } catch (RejectedExecutionException closed) {
            return null;
        }
    }

    /**
     * The page a {@link #start} fetched, waiting for it if need be. The wait is not interruptible,
     * as a fetch on the reader's own thread is not (the drivers finish a read they began); an
     * interrupt that came meanwhile is kept for the caller. A failed fetch throws what the fetch
     * threw; a fetch cancelled by a close reads as the end (null).
     */
    static Page await(Future<Page> ahead) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return ahead.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (CancellationException e) {
                    return null;
                } catch (ExecutionException e) {
                    // Lease.fetch throws no checked exception: the cause is thrown as the fetch threw it.
                    Throwable cause = e.getCause();
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw (RuntimeException) cause;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether the engine was closed (this was closed with it), whether or not reading ahead is on. */
    boolean engineClosed() {
        return closed;
    }

    /** Lets idle threads go and takes no more fetches; a fetch already running finishes. */
    @Override
    public void close() {
        closed = true;
        if (threads != null) {
            threads.shutdown();
        }
    }
}

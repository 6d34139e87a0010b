package dev.stillpoint.ports.snapshot;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One page fetched ahead on a read-ahead thread, and the page its fetcher went on to. When the
 * reader is already waiting for this page as its fetch ends, the reader holds no other page, so the
 * fetcher goes straight on to the next one on the same thread, recorded here before this page is
 * handed over: the database is not left idle while the reader wakes up and a pool thread is woken
 * for the next fetch. When the reader is not waiting (it is still on the page before), the fetcher
 * stops, and the reader starts the next fetch as it takes this page. Either way no fetch begins
 * before the reader has finished the page two before it, so a stream holds at most two pages [S7].
 *
 * <p>It refers to the lease and the budget only, never to the stream, so a stream dropped while a
 * fetch runs can still be reclaimed [S5].
 */
final class AheadPage implements Runnable {

    private final Lease lease;
    private final PageBudget budget;
    private final CompletableFuture<Page> result = new CompletableFuture<>();
    private volatile boolean readerWaiting;
    /** Written before {@link #result} completes, so the reader sees it once {@link #await} returns. */
    private volatile AheadPage next;

    AheadPage(Lease lease, PageBudget budget) {
        this.lease = lease;
        this.budget = budget;
    }

    @Override
    public void run() {
        AheadPage current = this;
        while (current != null) {
            current = current.fetchAndHandOver();
        }
    }

    /** Fetches this page and hands it over; returns the page this thread fetches next, if the reader waited. */
    private AheadPage fetchAndHandOver() {
        Page page;
        try {
            page = lease.fetch(budget);
        } catch (RuntimeException | Error e) {
            result.completeExceptionally(e);
            return null;
        }
        AheadPage following = null;
        if (page != null && !page.last() && readerWaiting) {
            following = new AheadPage(lease, budget);
            next = following;
        }
        result.complete(page);
        return following;
    }

    /**
     * The page, waiting for it if need be; null when the lease was released before the fetch. The
     * wait is not interruptible, as a fetch on the reader's own thread is not (the drivers finish a
     * read they began); an interrupt that came meanwhile is kept for the caller. A failed fetch
     * throws what the fetch threw.
     */
    Page await(String table) {
        if (!result.isDone()) {
            readerWaiting = true;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (CancellationException e) {
                    return null;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException r) {
                        throw r;
                    }
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw new StorageException(ErrorReason.INTERNAL, "reading ahead a page of a snapshot of table '"
                            + table + "' failed: " + cause, cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The fetch its fetcher went on to while the reader waited for this page; null if none. Read after {@link #await}. */
    AheadPage next() {
        return next;
    }
}

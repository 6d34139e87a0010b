package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.snapshot.LeaseState;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import java.lang.ref.Cleaner;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.Future;

/**
 * The item stream of a snapshot: pages fetched through its {@link Lease}, the first on demand and
 * each next one read ahead while the reader works through the one before ({@link PageReadAhead}).
 * Registered with a {@link Cleaner}, so a stream dropped without close still releases its lease [S5].
 */
final class LeasedItemStream implements ItemStream {

    private final Lease lease;
    private final PageBudget budget;
    private final PageReadAhead readAhead;
    private final Cleaner.Cleanable cleanable;
    /**
     * The next page's fetch, running or done; null when the next page is to be fetched on demand.
     * Volatile, as {@link #buffered} is: a close from another thread cancels it.
     */
    private volatile Future<Page> ahead;
    /** Volatile: a close from another thread empties it, so nothing buffered is yielded after the end [S5]. */
    private volatile Iterator<StoredItem> buffered = Collections.emptyIterator();

    LeasedItemStream(Lease lease, PageBudget budget, PageReadAhead readAhead, Cleaner cleaner) {
        this.lease = lease;
        this.budget = budget;
        this.readAhead = readAhead;
        // The action must not refer to this stream, or the stream would never become unreachable.
        this.cleanable = cleaner.register(this, new Reclaim(lease));
    }

    /**
     * Whether another item follows; fetches the next page when the last one is used up. Throws
     * SnapshotExpired naming the limit once the lease was reclaimed for idling [L1], also when
     * items of an earlier page are left (nothing is delivered after a release).
     */
    @Override
    public boolean hasNext() {
        lease.failIfExpired();
        while (!buffered.hasNext()) {
            Page page = nextPage();
            if (page == null) {
                lease.failIfExpired();
                return false;
            }
            buffered = page.items().iterator();
        }
        if (!lease.mayDeliver() && !failureAhead()) {
            lease.failIfExpired();
            return false;
        }
        return true;
    }

    /**
     * Whether the page read ahead failed and its failure is not thrown yet: the items of the page
     * being read were fetched before it, from the instant, so they are handed out first and the
     * failure is thrown where the failed page would have begun, as without read-ahead [S6].
     */
    private boolean failureAhead() {
        return ahead != null && lease.state() instanceof LeaseState.Released r
                && r.reason() == LeaseState.ReleaseReason.FAILED;
    }

    /** The page read ahead (or, without one, fetched now); starts reading the one after it unless it is the last. */
    private Page nextPage() {
        Future<Page> fetched = ahead;
        ahead = null;
        Page page = fetched == null ? lease.fetch(budget) : PageReadAhead.await(fetched);
        if (page != null && !page.last()) {
            ahead = readAhead.start(lease, budget);
        }
        return page;
    }

    @Override
    public StoredItem next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the snapshot stream has ended (" + lease.state().kind().name().toLowerCase(
                    java.util.Locale.ROOT) + ")");
        }
        return buffered.next();
    }

    @Override
    public void close() {
        // The last page's items are buffered after its lease ended (drained): drop them, or a closed
        // stream of a table that fit in one page would go on yielding them.
        buffered = Collections.emptyIterator();
        Future<Page> fetched = ahead;
        ahead = null;
        if (fetched != null) {
            // Not interrupted: a driver interrupted mid-read may leave its connection unusable. The
            // CLOSED below waits for a running fetch under the lease's monitor, then ends the transaction.
            fetched.cancel(false);
        }
        lease.apply(LeaseEvent.CLOSED);
        cleanable.clean();
    }

    @Override
    public boolean isReleased() {
        return lease.state().kind() == LeaseState.Kind.RELEASED;
    }

    /** Runs once: on close (then a no-op on a released lease) or when the stream was abandoned. */
    private record Reclaim(Lease lease) implements Runnable {
        @Override
        public void run() {
            lease.apply(LeaseEvent.ABANDONED);
        }
    }
}

package dev.stillpoint.ports.snapshot;

import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import java.lang.ref.Cleaner;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The item stream of a snapshot: pages fetched on demand through its {@link Lease}. Registered
 * with a {@link Cleaner}, so a stream dropped without close still releases its lease [S5].
 */
final class LeasedItemStream implements ItemStream {

    private final Lease lease;
    private final PageBudget budget;
    private final Cleaner.Cleanable cleanable;
    /** Volatile: a close from another thread empties it, so nothing buffered is yielded after the end [S5]. */
    private volatile Iterator<StoredItem> buffered = Collections.emptyIterator();

    LeasedItemStream(Lease lease, PageBudget budget, Cleaner cleaner) {
        this.lease = lease;
        this.budget = budget;
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
            Page page = lease.fetch(budget);
            if (page == null) {
                lease.failIfExpired();
                return false;
            }
            buffered = page.items().iterator();
        }
        if (!lease.mayDeliver()) {
            lease.failIfExpired();
            return false;
        }
        return true;
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
        lease.apply(LeaseEvent.CLOSED);
        cleanable.clean();
    }

    @Override
    public boolean isReleased() {
        return lease.state().kind() == dev.stillpoint.domain.snapshot.LeaseState.Kind.RELEASED;
    }

    /** Runs once: on close (then a no-op on a released lease) or when the stream was abandoned. */
    private record Reclaim(Lease lease) implements Runnable {
        @Override
        public void run() {
            lease.apply(LeaseEvent.ABANDONED);
        }
    }
}

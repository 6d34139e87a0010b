package dev.stillpoint.ports.snapshot;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.LeaseEffect;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.snapshot.LeaseRefusal;
import dev.stillpoint.domain.snapshot.LeaseState;
import dev.stillpoint.domain.snapshot.SnapshotLease;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.WakeSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One snapshot's lease at run time: the pure lease machine plus the resources its effects act on.
 * Every method runs under the lease's monitor, so a close from another thread waits for a page
 * fetch in flight and then releases; the machine makes each release happen once. It never refers
 * to the stream that uses it, so it can serve as the stream's cleaning action.
 */
final class Lease {

    private static final Logger LOG = LoggerFactory.getLogger(Lease.class);

    private final PermitLedger permits;
    private final WakeSignal wake;
    private final String table;
    private final ReadObserver observer;
    private volatile LeaseState state = SnapshotLease.requested();
    private AutoCloseable resource;
    private PageSource pages;

    Lease(PermitLedger permits, WakeSignal wake, String table, ReadObserver observer) {
        this.permits = permits;
        this.wake = wake;
        this.table = table;
        this.observer = observer;
    }

    LeaseState state() {
        return state;
    }

    /** Applies an event; false when the machine refused it (nothing happened). */
    synchronized boolean apply(LeaseEvent event) {
        Transition<LeaseState, LeaseEffect, LeaseRefusal> t = SnapshotLease.apply(state, event);
        if (t instanceof Transition.Refused) {
            return false;
        }
        state = t.nextOr(state);
        for (LeaseEffect effect : t.effects()) {
            perform(effect);
        }
        return true;
    }

    /** The resource that END_TRANSACTION closes: first the read window, later its page source. */
    synchronized void own(AutoCloseable resource) {
        this.resource = resource;
    }

    synchronized void ownPages(PageSource pages) {
        this.pages = pages;
        this.resource = pages;
    }

    /** Whether items already fetched may still be handed out (streaming, or drained to its end). */
    boolean mayDeliver() {
        LeaseState s = state;
        return s.kind() == LeaseState.Kind.STREAMING
                || s instanceof LeaseState.Released r && r.reason() == LeaseState.ReleaseReason.DRAINED;
    }

    /**
     * Fetches the next page; null once the lease is released. The last page ends the transaction
     * before its items are handed out; a failure releases the lease and is rethrown.
     */
    synchronized Page fetch(PageBudget budget) {
        if (state.kind() != LeaseState.Kind.STREAMING) {
            return null;
        }
        Page page;
        try {
            page = pages.nextPage(budget);
        } catch (RuntimeException | Error e) {
            apply(LeaseEvent.FAILED);
            throw e;
        }
        observer.pageRead(page);
        // One transition per page: in STREAMING an item is the identity move, and this monitor
        // already holds the state STREAMING, so per-item transitions would only cost allocations.
        if (!page.items().isEmpty()) {
            apply(LeaseEvent.ITEM_FETCHED);
        }
        if (page.last()) {
            apply(LeaseEvent.END_SEEN);
        }
        return page;
    }

    private void perform(LeaseEffect effect) {
        switch (effect) {
            case DELIVER_ITEM -> {
                // The caller hands the item out when apply returns true.
            }
            case END_TRANSACTION -> closeResource();
            case RETURN_PERMIT -> permits.release(HolderKind.TABLE_SNAPSHOT);
            case WAKE_POLLER -> wake.wake();
            case LOG_ABANDONED -> LOG.warn("a snapshot stream of table '{}' was dropped without close; "
                    + "its transaction and permit were reclaimed", table);
        }
    }

    private void closeResource() {
        AutoCloseable r = resource;
        resource = null;
        if (r == null) {
            return;
        }
        try {
            r.close();
        } catch (Exception e) {
            // Ending the transaction must not stop the permit's return or the wake that follow.
            LOG.warn("ending the snapshot transaction of table '{}' failed: {}", table, e.toString());
        }
    }
}

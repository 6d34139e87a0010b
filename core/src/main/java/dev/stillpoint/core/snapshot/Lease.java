package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.LeaseEffect;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.snapshot.LeaseRefusal;
import dev.stillpoint.domain.snapshot.LeaseState;
import dev.stillpoint.domain.snapshot.SnapshotLease;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One snapshot's lease at run time: the pure lease machine plus the resources its effects act on.
 * Every method runs under the lease's monitor, so a close from another thread waits for a page
 * fetch in flight and then releases; the machine makes each release happen once. It never refers
 * to the stream that uses it, so it can serve as the stream's cleaning action.
 *
 * <p>While streaming it keeps an idle clock [L1]: the time since its last page fetch ended (or since
 * it was handed out). The engine's {@link IdleWatch} asks {@link #expireIfIdle()} when the limit may
 * have passed; the answer is the pure {@link IdleLimit#check}, and an expiry is the machine's
 * IDLE_EXPIRED event, released like every other path. A fetch in flight is never idle. The clock is
 * the engine's {@link TimeSource}, so a test can move it and look at the exact limit.
 */
final class Lease {

    private static final Logger LOG = LoggerFactory.getLogger(Lease.class);

    private final PermitLedger permits;
    private final WakeSignal wake;
    private final String table;
    private final IdleLimit idleLimit;
    private final ReadObserver observer;
    private final StorageEvents events;
    private volatile LeaseState state = SnapshotLease.requested();
    private final ActivityClock clock;
    private AutoCloseable resource;
    private PageSource pages;

    Lease(PermitLedger permits, WakeSignal wake, String table, IdleLimit idleLimit, ReadObserver observer,
          StorageEvents events, TimeSource time) {
        this(permits, wake, table, idleLimit, observer, events, new ActivityClock(time));
    }

    /** A lease whose idle clock is {@code clock}, shared by the segments of one snapshot [B2, L1]. */
    Lease(PermitLedger permits, WakeSignal wake, String table, IdleLimit idleLimit, ReadObserver observer,
          StorageEvents events, ActivityClock clock) {
        this.permits = permits;
        this.clock = clock;
        this.events = events;
        this.wake = wake;
        this.table = table;
        this.idleLimit = idleLimit;
        this.observer = observer;
    }

    String table() {
        return table;
    }

    /** Starts the idle clock: the stream is about to be handed out. */
    void startIdleClock() {
        clock.touch();
    }

    /**
     * Releases the lease (IDLE_EXPIRED) when it streamed without a page fetch for the whole idle
     * limit [L1]. Returns when to look again, or empty when the lease is released (now or before).
     * The first look takes no lock, so the timer never waits behind a slow page fetch.
     */
    Optional<Duration> expireIfIdle() {
        if (state.kind() != LeaseState.Kind.STREAMING) {
            return Optional.empty();
        }
        // What a fetch sets is read before the clock: a fetch that starts or ends after these reads is
        // met by the second look, under the monitor, where no fetch is in flight.
        boolean inFlight = clock.fetchInFlight();
        long last = clock.lastNanos();
        IdleLimit.Check first = idleLimit.check(clock.now() - last, inFlight);
        if (first instanceof IdleLimit.Check.LookAgain again) {
            return Optional.of(again.delay());
        }
        synchronized (this) {
            if (state.kind() != LeaseState.Kind.STREAMING) {
                return Optional.empty();
            }
            // Under the monitor no fetch of this lease is in flight; one may have ended since the first look.
            // Another segment's fetch may be (a segmented snapshot's leases share the clock [B2]).
            IdleLimit.Check check = idleLimit.check(clock.now() - clock.lastNanos(), clock.fetchInFlight());
            if (check instanceof IdleLimit.Check.LookAgain again) {
                return Optional.of(again.delay());
            }
            apply(LeaseEvent.IDLE_EXPIRED);
            return Optional.empty();
        }
    }

    /** Throws the SnapshotExpired error naming the limit when the lease was reclaimed for idling [L1]. */
    void failIfExpired() {
        if (state instanceof LeaseState.Released r && r.reason() == LeaseState.ReleaseReason.EXPIRED) {
            throw new StorageException(ErrorReason.SNAPSHOT_EXPIRED, idleLimit.expiredMessage(table));
        }
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
        // The permit's return happens once per lease that held one, so it is where a release is told.
        if (t.effects().contains(LeaseEffect.RETURN_PERMIT) && state instanceof LeaseState.Released released) {
            events.leaseReleased(t.effects().contains(LeaseEffect.LOG_ABANDONED) ? StorageEvents.LeaseEnd.ABANDONED
                    : endOf(released.reason()));
        }
        return true;
    }

    /**
     * The resource that END_TRANSACTION closes: the open's current step (begun, defined, pinned), each
     * replacing the one it was made from, which has handed it everything; later the page source.
     */
    synchronized void own(AutoCloseable resource) {
        this.resource = resource;
    }

    /** The page source the stream fetches from; it replaces the pinned step as what END_TRANSACTION closes. */
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
        clock.fetchStarted();
        try {
            page = pages.nextPage(budget);
        } catch (RuntimeException | Error e) {
            apply(LeaseEvent.FAILED);
            throw e;
        } finally {
            clock.fetchEnded();
        }
        observer.pageRead(page);
        events.pageStreamed(page);
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

    private static StorageEvents.LeaseEnd endOf(LeaseState.ReleaseReason reason) {
        return switch (reason) {
            case DRAINED -> StorageEvents.LeaseEnd.DRAINED;
            case CLOSED_EARLY -> StorageEvents.LeaseEnd.CLOSED;
            case EXPIRED -> StorageEvents.LeaseEnd.EXPIRED;
            case FAILED -> StorageEvents.LeaseEnd.FAILED;
            case OPEN_FAILED, OPEN_CANCELLED -> StorageEvents.LeaseEnd.OPEN_FAILED;
        };
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
            case LOG_EXPIRED -> LOG.warn("a snapshot stream of table '{}' fetched no page for {} ({}); "
                    + "its transaction and permit were reclaimed", table, idleLimit.text(), IdleLimit.SETTING);
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

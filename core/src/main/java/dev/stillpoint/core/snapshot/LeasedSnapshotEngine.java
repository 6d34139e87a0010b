package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.request.TableRules;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.ports.out.PinnedRead;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SegmentSources;
import dev.stillpoint.ports.out.SnapshotReadPort;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;

/**
 * The one implementation of {@link SnapshotEngine} the snapshot-capable adapters share: a permit,
 * the lease machine, the adapter's read steps (begun, defined, pinned, pages) with the two pauses
 * between them, the refusal of a table that is not ACTIVE, and a stream that releases on every path
 * [S1-S7, D6, D7]. Adapters supply only the {@link SnapshotReadPort}.
 *
 * <p>Every stream it hands out has an idle limit [L1]: past it with no page fetched, the engine's
 * idle timer (one daemon thread, {@link IdleWatch}) releases the lease as a close would, and the
 * stream fails SnapshotExpired naming the limit. The {@link Cleaner} stays as a second net.
 *
 * <p>Unless built with {@link ReadAhead#NONE}, a stream fetches its next page on a read-ahead thread
 * while its reader works through the current one, so a stream holds at most two pages [S7]. Close
 * the engine to stop the timer thread and the read-ahead threads.
 *
 * <p>A segmented snapshot [B2] runs the same steps once and hands the pinned read to N leases. Longer
 * than 300 lines for that reason: the two opens are kept side by side, in the same order of steps and
 * lease events, so a change to one is seen beside the other.
 */
public final class LeasedSnapshotEngine implements SnapshotEngine, AutoCloseable {

    private final SnapshotReadPort reads;
    private final PermitLedger permits;
    private final WakeSignal wake;
    private final PageBudget budget;
    private final ReadObserver observer;
    private final Cleaner cleaner;
    private final IdleWatch idle;
    private final PageReadAhead readAhead;
    private final StorageEvents events;
    private final TimeSource time;

    /**
     * An engine whose streams have the default idle limit (60 s) [L1].
     *
     * @param reads the adapter's snapshot reads
     * @param permits the engine's permit pool [D7]
     * @param wake woken by every release [P8]
     * @param budget rows and bytes per page [S7]
     * @param observer test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner reclaims a stream dropped without close [S5]
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake,
                                PageBudget budget, ReadObserver observer, Cleaner cleaner) {
        this(reads, permits, wake, budget, observer, cleaner, IdleLimit.DEFAULT);
    }

    /**
     * An engine over the adapter's read port whose streams read one page ahead.
     *
     * @param reads     the adapter's snapshot reads
     * @param permits   the engine's permit pool [D7]
     * @param wake      woken by every release [P8]
     * @param budget    rows and bytes per page [S7]
     * @param observer  test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner   reclaims a stream dropped without close [S5]
     * @param idleLimit how long a stream may go without a page fetch before it is reclaimed [L1]
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake,
                                PageBudget budget, ReadObserver observer, Cleaner cleaner, IdleLimit idleLimit) {
        this(reads, permits, wake, budget, observer, cleaner, idleLimit, ReadAhead.ONE_PAGE);
    }

    /**
     * An engine over the adapter's read port.
     *
     * @param reads     the adapter's snapshot reads
     * @param permits   the engine's permit pool [D7]
     * @param wake      woken by every release [P8]
     * @param budget    rows and bytes per page [S7]
     * @param observer  test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner   reclaims a stream dropped without close [S5]
     * @param idleLimit how long a stream may go without a page fetch before it is reclaimed [L1]
     * @param readAhead whether a stream fetches its next page while its reader works through the current one
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake, PageBudget budget,
                                ReadObserver observer, Cleaner cleaner, IdleLimit idleLimit, ReadAhead readAhead) {
        this(reads, permits, wake, budget, observer, cleaner, idleLimit, readAhead, StorageEvents.NONE);
    }

    /**
     * An engine whose streams read one page ahead, watched by {@code events} [X1].
     *
     * @param reads     the adapter's snapshot reads
     * @param permits   the engine's permit pool [D7]
     * @param wake      woken by every release [P8]
     * @param budget    rows and bytes per page [S7]
     * @param observer  test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner   reclaims a stream dropped without close [S5]
     * @param idleLimit how long a stream may go without a page fetch before it is reclaimed [L1]
     * @param events    told of refusals, releases and pages; offered the permit ledger's figures now
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake, PageBudget budget,
                                ReadObserver observer, Cleaner cleaner, IdleLimit idleLimit, StorageEvents events) {
        this(reads, permits, wake, budget, observer, cleaner, idleLimit, ReadAhead.ONE_PAGE, events);
    }

    /**
     * An engine over the adapter's read port, watched by {@code events} [X1].
     *
     * @param reads     the adapter's snapshot reads
     * @param permits   the engine's permit pool [D7]
     * @param wake      woken by every release [P8]
     * @param budget    rows and bytes per page [S7]
     * @param observer  test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner   reclaims a stream dropped without close [S5]
     * @param idleLimit how long a stream may go without a page fetch before it is reclaimed [L1]
     * @param readAhead whether a stream fetches its next page while its reader works through the current one
     * @param events    told of refusals, releases and pages; offered the permit ledger's figures now
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake, PageBudget budget,
                                ReadObserver observer, Cleaner cleaner, IdleLimit idleLimit, ReadAhead readAhead,
                                StorageEvents events) {
        this(reads, permits, wake, budget, observer, cleaner, idleLimit, readAhead, events, TimeSource.SYSTEM);
    }

    /**
     * An engine over the adapter's read port whose streams' idle clocks read {@code time} [L1].
     *
     * @param reads     the adapter's snapshot reads
     * @param permits   the engine's permit pool [D7]
     * @param wake      woken by every release [P8]
     * @param budget    rows and bytes per page [S7]
     * @param observer  test hooks; {@link ReadObserver#NONE} in production
     * @param cleaner   reclaims a stream dropped without close [S5]
     * @param idleLimit how long a stream may go without a page fetch before it is reclaimed [L1]
     * @param readAhead whether a stream fetches its next page while its reader works through the current one
     * @param events    told of refusals, releases and pages; offered the permit ledger's figures now
     * @param time      the monotonic clock a stream's idle time is measured on ({@link TimeSource#SYSTEM} in production)
     */
    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake, PageBudget budget,
                                ReadObserver observer, Cleaner cleaner, IdleLimit idleLimit, ReadAhead readAhead,
                                StorageEvents events, TimeSource time) {
        this.time = java.util.Objects.requireNonNull(time, "time");
        this.reads = reads;
        this.permits = permits;
        this.wake = wake;
        this.budget = budget;
        this.observer = observer;
        this.cleaner = cleaner;
        this.idle = new IdleWatch(idleLimit);
        this.readAhead = new PageReadAhead(readAhead);
        this.events = java.util.Objects.requireNonNull(events, "events");
        // A gauge reads the ledger itself: no second count of permits to drift from it.
        events.snapshotPermits(new StorageEvents.PermitFigures() {
            @Override
            public int inUse() {
                return permits.inUse();
            }

            @Override
            public int heldBySnapshots() {
                return permits.held(HolderKind.TABLE_SNAPSHOT);
            }

            @Override
            public int capacity() {
                return permits.capacity();
            }
        });
    }

    /**
     * The idle limit of this engine's streams [L1].
     *
     * @return how long a stream may go without a page fetch before it is reclaimed
     */
    public IdleLimit idleLimit() {
        return idle.limit();
    }

    /**
     * Stops the idle timer's thread and the page read-ahead, and refuses opens from here on (TRANSIENT: its
     * storage is closed); streams still open keep their Cleaner and fetch their pages on their readers' threads
     * (an adapter whose connections closed says so). Idempotent.
     */
    @Override
    public void close() {
        idle.close();
        readAhead.close();
    }

    /** Refuses an open once the engine is closed: its storage's connections are going or gone. */
    private void requireOpen(String tableName) {
        if (readAhead.engineClosed()) {
            throw new StorageException(ErrorReason.TRANSIENT, "opening a snapshot of table '" + tableName
                    + "': its storage is closed");
        }
    }

    /** Opens a snapshot (see {@link SnapshotEngine#openTableSnapshot}); its stream has this engine's idle limit. */
    @Override
    public TableSnapshot openTableSnapshot(String accountId, String tableName, StoredKeys storedKeys) {
        // Checked before a permit is taken: an invalid name is the caller's error, never a missing table [R1].
        TableRules.requireAddress(accountId, tableName);
        if (storedKeys == null) {
            throw StorageException.validation("storedKeys must not be null (OMITTED or INCLUDED)");
        }
        requireOpen(tableName);
        Lease lease = new Lease(permits, wake, tableName, idle.limit(), observer, events, time);
        try {
            permits.acquire(HolderKind.TABLE_SNAPSHOT);
        } catch (StorageException refused) {
            events.permitRefused();
            lease.apply(LeaseEvent.PERMIT_REFUSED);
            throw refused;
        }
        lease.apply(LeaseEvent.PERMIT_GRANTED);
        try {
            return open(lease, accountId, tableName, storedKeys);
        } catch (RuntimeException | Error e) {
            // An interrupted caller abandoned the open; anything else is a failed open. Both release.
            lease.apply(Thread.currentThread().isInterrupted() ? LeaseEvent.CLOSED : LeaseEvent.FAILED);
            throw e;
        }
    }

    /**
     * The open's steps in order, each owned by the lease from the moment it exists, so a failure or a
     * cancellation anywhere closes the step current then, once. The refusal of a table that is not
     * ACTIVE is decided here and nowhere else [S6].
     */
    private TableSnapshot open(Lease lease, String accountId, String tableName, StoredKeys storedKeys) {
        BegunRead begun = reads.begin(accountId, tableName, observer);
        lease.own(begun);
        DefinedRead defined = begun.readDefinition();
        lease.own(defined);
        lease.apply(LeaseEvent.DEFINITION_READ);
        TableDescription description = defined.description();
        if (description.status() != TableStatus.ACTIVE) {
            throw new StorageException(ErrorReason.RESOURCE_IN_USE, "table '" + tableName + "' is "
                    + description.status() + "; a snapshot needs an ACTIVE table");
        }
        observer.atPause(PausePoint.AFTER_DEFINITION);
        PinnedRead pinned = defined.pin();
        lease.own(pinned);
        lease.apply(LeaseEvent.SNAPSHOT_PINNED);
        observer.atPause(PausePoint.BEFORE_ITEMS);
        java.util.OptionalLong itemCount = pinned.itemCount(); // before pages(): a copy at open ends the read
        PageSource pages = pinned.pages(storedKeys);
        lease.ownPages(pages);
        lease.startIdleClock();
        lease.apply(LeaseEvent.STREAM_STARTED);
        TableDescription atInstant = description.dropDeletingIndexes().snapshotView();
        TableSnapshot snapshot = new TableSnapshot(atInstant, pinned.info(), pinned.keyOrdered(),
                new LeasedItemStream(lease, budget, readAhead, cleaner), itemCount);
        idle.watch(lease);
        return snapshot;
    }

    /**
     * Opens a segmented snapshot (see {@link SnapshotEngine#openTableSnapshot(String, String, StoredKeys, int)}):
     * all {@code segments} permits at once or none, then one open of the adapter's steps, then the pinned
     * read cut into segments [B2]. Each segment has its own lease (its permit, its release on every path)
     * and the segments share one idle clock and the adapter's shared read, so the table has its reader
     * until the last segment ends.
     */
    @Override
    public SegmentedSnapshot openTableSnapshot(String accountId, String tableName, StoredKeys storedKeys,
                                               int segments) {
        TableRules.requireAddress(accountId, tableName);
        if (storedKeys == null) {
            throw StorageException.validation("storedKeys must not be null (OMITTED or INCLUDED)");
        }
        if (segments < 1) {
            throw StorageException.validation("a segmented snapshot needs at least 1 segment, got " + segments);
        }
        requireOpen(tableName);
        ActivityClock clock = new ActivityClock(time);
        List<Lease> leases = new ArrayList<>(segments);
        for (int i = 0; i < segments; i++) {
            leases.add(new Lease(permits, wake, tableName, idle.limit(), observer, events, clock));
        }
        try {
            permits.acquire(HolderKind.TABLE_SNAPSHOT, segments);
        } catch (StorageException refused) {
            events.permitRefused();
            leases.forEach(l -> l.apply(LeaseEvent.PERMIT_REFUSED));
            throw refused;
        }
        leases.forEach(l -> l.apply(LeaseEvent.PERMIT_GRANTED));
        try {
            return openSegments(leases, accountId, tableName, storedKeys);
        } catch (RuntimeException | Error e) {
            LeaseEvent end = Thread.currentThread().isInterrupted() ? LeaseEvent.CLOSED : LeaseEvent.FAILED;
            leases.forEach(l -> l.apply(end));
            throw e;
        }
    }

    /**
     * The steps of {@link #open} once, owned by the first lease, then the pinned read handed to the
     * segments: each lease owns its segment's pages from then on.
     */
    private SegmentedSnapshot openSegments(List<Lease> leases, String accountId, String tableName,
                                           StoredKeys storedKeys) {
        Lease first = leases.get(0);
        BegunRead begun = reads.begin(accountId, tableName, observer);
        first.own(begun);
        DefinedRead defined = begun.readDefinition();
        first.own(defined);
        leases.forEach(l -> l.apply(LeaseEvent.DEFINITION_READ));
        TableDescription description = defined.description();
        if (description.status() != TableStatus.ACTIVE) {
            throw new StorageException(ErrorReason.RESOURCE_IN_USE, "table '" + tableName + "' is "
                    + description.status() + "; a snapshot needs an ACTIVE table");
        }
        observer.atPause(PausePoint.AFTER_DEFINITION);
        PinnedRead pinned = defined.pin();
        first.own(pinned);
        leases.forEach(l -> l.apply(LeaseEvent.SNAPSHOT_PINNED));
        observer.atPause(PausePoint.BEFORE_ITEMS);
        java.util.OptionalLong itemCount = pinned.itemCount();
        SegmentSources sources = pinned.segments(leases.size(), storedKeys);
        SegmentPages.Shared shared = new SegmentPages.Shared(sources.sharedRead(), leases.size(), tableName);
        if (sources.segments().size() != leases.size()) {
            // Every source is owned before the refusal, so the failure path closes them and the shared read.
            for (int i = 0; i < leases.size(); i++) {
                leases.get(i).ownPages(i < sources.segments().size()
                        ? new SegmentPages(sources.segments().get(i), shared) : new SegmentPages(EMPTY, shared));
            }
            sources.segments().stream().skip(leases.size()).forEach(PageSource::close);
            throw StorageException.internal("the adapter cut the snapshot of '" + tableName + "' into "
                    + sources.segments().size() + " segments, " + leases.size() + " were asked for", null);
        }
        for (int i = 0; i < leases.size(); i++) {
            leases.get(i).ownPages(new SegmentPages(sources.segments().get(i), shared));
        }
        leases.forEach(Lease::startIdleClock);
        leases.forEach(l -> l.apply(LeaseEvent.STREAM_STARTED));
        List<ItemStream> streams = new ArrayList<>(leases.size());
        leases.forEach(l -> streams.add(new LeasedItemStream(l, budget, readAhead, cleaner)));
        SegmentedSnapshot snapshot = new SegmentedSnapshot(description.dropDeletingIndexes().snapshotView(),
                pinned.info(), pinned.keyOrdered(), streams, itemCount);
        leases.forEach(idle::watch);
        return snapshot;
    }

    /**
     * Stands in for a segment the adapter did not hand over, so the failure path has something to close; the
     * open fails before any stream exists, so nothing reads it.
     */
    private static final PageSource EMPTY = new PageSource() {
        @Override
        public dev.stillpoint.ports.out.Page nextPage(PageBudget budget) {
            throw new IllegalStateException("a stand-in for a missing segment is never read");
        }

        @Override
        public void close() {
        }
    };
}

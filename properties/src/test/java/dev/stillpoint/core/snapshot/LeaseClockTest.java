package dev.stillpoint.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.snapshot.LeaseState;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * The lease's idle clock [L1] on a clock the test moves, and the orders of events that only a
 * race produces with the system clock: a page fetched, or a close, between the timer's lock-free
 * first look and its look under the monitor; a reader holding the monitor while the timer looks;
 * a release landing between a page's fetch and the delivery of its items. The clock is held at the
 * timer's reading (after the lease's state was read), which is the pause point of these orders.
 *
 * <p>In the core's package because {@link Lease} and {@link LeasedItemStream} are the core's
 * own; the PIT profile {@code pit-ports} runs this package's tests with the machinery's.
 */
class LeaseClockTest {

    private static final String TABLE = "things";
    private static final Duration LIMIT = Duration.ofSeconds(1);
    /** System.nanoTime's origin is arbitrary; a far one, as on a machine up for hours. */
    private static final long ORIGIN = 5_000_000_000_000L;
    private static final long WAIT_SECONDS = 10;

    private final HeldClock clock = new HeldClock(ORIGIN);
    private final PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(1));
    private final AtomicInteger wakes = new AtomicInteger();
    private final RecordedEvents events = new RecordedEvents();
    private final ScriptedPages pages = new ScriptedPages(6);

    // [L1] a lease idle one nanosecond short of the limit is looked at again one nanosecond later;
    // idle for the whole limit it is released: read ended, permit returned, poller woken, once; the
    // stream then fails SnapshotExpired naming the limit.
    @Test
    void l1_idleForTheWholeLimitIsReleasedAndOneNanosecondLessIsLookedAtAgainThen() {
        Lease lease = streaming(ReadObserver.NONE);
        clock.advance(LIMIT.minusNanos(1));
        assertThat(lease.expireIfIdle()).as("[L1] idle 1 ns short of the limit: look again when it may have passed")
                .isEqualTo(Optional.of(Duration.ofNanos(1)));
        assertThat(lease.state().kind()).as("[L1] not released before the limit").isEqualTo(LeaseState.Kind.STREAMING);
        assertThat(ledger.inUse()).isEqualTo(1);

        clock.advance(Duration.ofNanos(1));
        assertThat(lease.expireIfIdle()).as("[L1] released: nothing more to look at").isEmpty();
        assertReleased(lease, LeaseState.ReleaseReason.EXPIRED, StorageEvents.LeaseEnd.EXPIRED);
        assertThatThrownBy(lease::failIfExpired).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
            assertThat(e.getMessage()).as("[L1] names the limit").contains("1 s").contains(IdleLimit.SETTING).contains(TABLE);
        });

        clock.advance(LIMIT);
        assertThat(lease.expireIfIdle()).as("a late look at a released lease does nothing").isEmpty();
        assertReleased(lease, LeaseState.ReleaseReason.EXPIRED, StorageEvents.LeaseEnd.EXPIRED);
    }

    // [L1] every page fetch restarts the idle clock, also one that ends while the timer looks: the
    // timer read the lease idle for the whole limit, a page was fetched before it took the monitor,
    // so the lease streams on and is looked at again a whole limit after that fetch.
    @Test
    void l1_aPageFetchedWhileTheTimerLooksRestartsTheIdleClock() throws Exception {
        Lease lease = streaming(ReadObserver.NONE);
        clock.advance(LIMIT);
        Look look = new Look(lease);
        clock.holdTheNextReadOf(look.thread);
        look.thread.start();
        assertThat(clock.awaitHeld()).as("the timer's first look reads the clock").isTrue();

        Page page = lease.fetch(new PageBudget(2, 1 << 20));
        clock.release();

        assertThat(look.result()).as("[L1] looked at again a whole limit after the page fetched during the look")
                .isEqualTo(Optional.of(LIMIT));
        assertThat(page.items()).hasSize(2);
        assertThat(lease.state().kind()).as("[L1] not expired: a page was fetched since the timer's first look")
                .isEqualTo(LeaseState.Kind.STREAMING);
        assertThat(ledger.inUse()).as("the permit is still the stream's").isEqualTo(1);
        assertThat(pages.closes.get()).as("the read goes on").isZero();
        assertThat(events.ends).isEmpty();
        assertThat(events.pages).as("[X1] the page fetched is told").hasSize(1);
    }

    // [L1] the timer's first look takes no lock, so it never waits behind a reader that holds the
    // lease's monitor (here, handing a fetched page to the observer): it finds the page just fetched
    // and looks again a whole limit later, while the reader still holds the monitor.
    @Test
    void l1_theTimersLookDoesNotWaitBehindAReaderHoldingTheLease() throws Exception {
        CountDownLatch handing = new CountDownLatch(1);
        CountDownLatch handed = new CountDownLatch(1);
        Lease lease = streaming(new ReadObserver() {
            @Override
            public void pageRead(Page page) {
                handing.countDown();
                awaitQuietly(handed);
            }
        });
        Thread reader = new Thread(() -> lease.fetch(new PageBudget(2, 1 << 20)), "reader");
        reader.start();
        try {
            assertThat(handing.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            Look look = new Look(lease);
            look.thread.start();
            assertThat(look.done.await(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("[L1] the timer's look returns while a reader holds the lease's monitor").isTrue();
            assertThat(look.result()).as("[L1] the page just fetched: look again a whole limit later").isEqualTo(Optional.of(LIMIT));
        } finally {
            handed.countDown();
            reader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        assertThat(lease.state().kind()).isEqualTo(LeaseState.Kind.STREAMING);
    }

    // [S5, D6] a close that lands while the timer looks (after its first look found the lease idle
    // for the whole limit) releases the lease once, as closed: the timer then finds it released and
    // neither expires it nor returns the permit a second time.
    @Test
    void s5_aCloseWhileTheTimerLooksReleasesOnceAsClosedNotExpired() throws Exception {
        Lease lease = streaming(ReadObserver.NONE);
        clock.advance(LIMIT);
        Look look = new Look(lease);
        clock.holdTheNextReadOf(look.thread);
        look.thread.start();
        assertThat(clock.awaitHeld()).isTrue();

        lease.apply(LeaseEvent.CLOSED);
        clock.release();

        assertThat(look.result()).as("released meanwhile: nothing more to look at").isEmpty();
        assertReleased(lease, LeaseState.ReleaseReason.CLOSED_EARLY, StorageEvents.LeaseEnd.CLOSED);
        assertThatCode(lease::failIfExpired).as("[L1] a closed stream is not an expired one").doesNotThrowAnyException();
    }

    // [L1] a fetch in flight is never idle: the timer does not wait for it and looks again a whole
    // limit later, however long ago the last page ended.
    @Test
    void l1_aFetchInFlightIsNeverIdle() throws Exception {
        CountDownLatch fetching = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        pages.onPage = n -> {
            fetching.countDown();
            awaitQuietly(answer);
        };
        Lease lease = streaming(ReadObserver.NONE);
        clock.advance(LIMIT.multipliedBy(3));
        Thread reader = new Thread(() -> lease.fetch(new PageBudget(2, 1 << 20)), "reader");
        reader.start();
        try {
            assertThat(fetching.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(lease.expireIfIdle()).as("[L1] a fetch in flight: look again a whole limit later").isEqualTo(Optional.of(LIMIT));
        } finally {
            answer.countDown();
            reader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        assertThat(lease.state().kind()).isEqualTo(LeaseState.Kind.STREAMING);
        assertThat(lease.expireIfIdle()).as("[L1] the fetch's end restarted the clock").isEqualTo(Optional.of(LIMIT));
    }

    // [D6, S5] no item is delivered after release: a close that lands between a page's fetch and the
    // delivery of its items (here made on the reader's own thread, where the observer is told of
    // the page) leaves the page's items undelivered; the stream ends.
    @Test
    void d6_aCloseBetweenAPagesFetchAndItsDeliveryDeliversNoneOfItsItems() {
        AtomicReference<LeasedItemStream> stream = new AtomicReference<>();
        AtomicInteger told = new AtomicInteger();
        Lease lease = streaming(new ReadObserver() {
            @Override
            public void pageRead(Page page) {
                if (told.incrementAndGet() == 2) {
                    stream.get().close();
                }
            }
        });
        stream.set(stream(lease));
        LeasedItemStream items = stream.get();
        assertThat(List.of(items.next().json(), items.next().json())).as("page 1 delivered").hasSize(2);

        assertThat(items.hasNext()).as("[D6] page 2 was fetched, then the stream closed: none of its items").isFalse();
        assertThatThrownBy(items::next).isInstanceOf(NoSuchElementException.class);
        assertReleased(lease, LeaseState.ReleaseReason.CLOSED_EARLY, StorageEvents.LeaseEnd.CLOSED);
    }

    // [L1] a lease expired between a page's fetch and the delivery of its items (the reader stalled
    // for the whole limit right after the fetch) delivers none of them: the stream fails
    // SnapshotExpired naming the limit, rather than ending as if the table had.
    @Test
    void l1_aLeaseExpiredBetweenAPagesFetchAndItsDeliveryFailsSnapshotExpired() {
        AtomicInteger told = new AtomicInteger();
        AtomicReference<Lease> leased = new AtomicReference<>();
        Lease lease = streaming(new ReadObserver() {
            @Override
            public void pageRead(Page page) {
                if (told.incrementAndGet() == 2) {
                    clock.advance(LIMIT);
                    assertThat(leased.get().expireIfIdle()).isEmpty();
                }
            }
        });
        leased.set(lease);
        LeasedItemStream items = stream(lease);
        items.next();
        items.next();

        assertThatThrownBy(items::hasNext).as("[L1] the stream fails, it does not end")
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
                    assertThat(e.getMessage()).contains("1 s").contains(TABLE);
                });
        assertReleased(lease, LeaseState.ReleaseReason.EXPIRED, StorageEvents.LeaseEnd.EXPIRED);
    }

    // [X1, S5, D6] each way a lease ends is told once, with its own end: drained, failed, abandoned,
    // and an open that failed; the permit comes back once on each.
    @Test
    void x1_eachEndIsToldOnceAsItself() {
        LeasedItemStream drained = stream(streaming(ReadObserver.NONE));
        int read = 0;
        while (drained.hasNext()) {
            drained.next();
            read++;
        }
        assertThat(read).isEqualTo(6);
        assertThat(events.ends).as("[X1] drained").containsExactly(StorageEvents.LeaseEnd.DRAINED);
        assertThat(events.pages).as("[X1] every page told").hasSize(3);
        assertThat(ledger.inUse()).isZero();

        pages.failAt = 2;
        LeasedItemStream failing = stream(streaming(ReadObserver.NONE));
        failing.next();
        failing.next();
        assertThatThrownBy(failing::hasNext).isInstanceOf(StorageException.class);
        assertThat(events.ends).as("[X1] failed").containsExactly(StorageEvents.LeaseEnd.DRAINED, StorageEvents.LeaseEnd.FAILED);
        assertThat(ledger.inUse()).isZero();

        Lease abandoned = streaming(ReadObserver.NONE);
        abandoned.apply(LeaseEvent.ABANDONED);
        assertThat(events.ends).as("[X1, S5] abandoned").endsWith(StorageEvents.LeaseEnd.ABANDONED).hasSize(3);
        assertThat(ledger.inUse()).isZero();

        Lease opening = new Lease(ledger, wakes::incrementAndGet, TABLE, new IdleLimit(LIMIT), ReadObserver.NONE, events, clock);
        ledger.acquire(HolderKind.TABLE_SNAPSHOT);
        opening.apply(LeaseEvent.PERMIT_GRANTED);
        opening.apply(LeaseEvent.FAILED);
        assertThat(events.ends).as("[X1] an open that failed").endsWith(StorageEvents.LeaseEnd.OPEN_FAILED).hasSize(4);
        assertThat(ledger.inUse()).isZero();
        assertThat(wakes.get()).as("[D6] every release woke the poller").isEqualTo(4);
    }

    /** A lease through the engine's open steps, streaming over {@link #pages}, its idle clock started now. */
    private Lease streaming(ReadObserver observer) {
        Lease lease = new Lease(ledger, wakes::incrementAndGet, TABLE, new IdleLimit(LIMIT), observer, events, clock);
        ledger.acquire(HolderKind.TABLE_SNAPSHOT);
        lease.apply(LeaseEvent.PERMIT_GRANTED);
        lease.apply(LeaseEvent.DEFINITION_READ);
        lease.apply(LeaseEvent.SNAPSHOT_PINNED);
        pages.restart();
        lease.ownPages(pages);
        lease.startIdleClock();
        lease.apply(LeaseEvent.STREAM_STARTED);
        return lease;
    }

    /** A stream of two items a page, each fetched on the reader's thread. */
    private static LeasedItemStream stream(Lease lease) {
        return new LeasedItemStream(lease, new PageBudget(2, 1 << 20), new PageReadAhead(ReadAhead.NONE), Cleaner.create());
    }

    private void assertReleased(Lease lease, LeaseState.ReleaseReason reason, StorageEvents.LeaseEnd end) {
        assertThat(lease.state()).as("[D6] released as " + reason)
                .isInstanceOfSatisfying(LeaseState.Released.class, r -> assertThat(r.reason()).isEqualTo(reason));
        assertThat(ledger.inUse()).as("[D6] the permit returned").isZero();
        assertThat(pages.closes.get()).as("[S5] the read ended, once").isEqualTo(1);
        assertThat(wakes.get()).as("[P8] the release woke the poller, once").isEqualTo(1);
        assertThat(events.ends).as("[X1] the release told once, as " + end).containsExactly(end);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS * 3, TimeUnit.SECONDS)) {
                throw new AssertionError("the test did not let the held thread go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The idle timer's look, on a thread of its own as on the engine's timer. */
    private static final class Look {
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Optional<Duration>> answer = new AtomicReference<>();
        final Thread thread;

        Look(Lease lease) {
            this.thread = new Thread(() -> {
                answer.set(lease.expireIfIdle());
                done.countDown();
            }, "idle-look");
        }

        Optional<Duration> result() throws InterruptedException {
            assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the look ended").isTrue();
            return answer.get();
        }
    }

    /** A monotonic clock the test moves, which can hold one thread at its next reading. */
    private static final class HeldClock implements TimeSource {
        private volatile long nanos;
        private volatile Thread holding;
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        HeldClock(long origin) {
            this.nanos = origin;
        }

        synchronized void advance(Duration by) {
            nanos += by.toNanos();
        }

        void holdTheNextReadOf(Thread thread) {
            holding = thread;
        }

        boolean awaitHeld() throws InterruptedException {
            return held.await(WAIT_SECONDS, TimeUnit.SECONDS);
        }

        void release() {
            released.countDown();
        }

        @Override
        public long monotonicNanos() {
            if (Thread.currentThread() == holding) {
                holding = null;
                held.countDown();
                awaitQuietly(released);
            }
            return nanos;
        }

        @Override
        public Instant now() {
            return Instant.EPOCH.plusNanos(nanos);
        }
    }

    /** The ends and pages the lease tells. */
    private static final class RecordedEvents implements StorageEvents {
        final List<LeaseEnd> ends = new CopyOnWriteArrayList<>();
        final List<Page> pages = new CopyOnWriteArrayList<>();

        @Override
        public void leaseReleased(LeaseEnd end) {
            ends.add(end);
        }

        @Override
        public void pageStreamed(Page page) {
            this.pages.add(page);
        }
    }

    /** A table of {@code size} items served as pages within the budget; counts its closes; may fail a page. */
    private static final class ScriptedPages implements PageSource {
        private final int size;
        private int next;
        private int served;
        final AtomicInteger closes = new AtomicInteger();
        volatile int failAt;
        volatile IntConsumer onPage = n -> { };

        ScriptedPages(int size) {
            this.size = size;
        }

        void restart() {
            next = 0;
            served = 0;
            closes.set(0);
        }

        @Override
        public Page nextPage(PageBudget budget) {
            served++;
            onPage.accept(served);
            if (served == failAt) {
                throw new StorageException(ErrorReason.TRANSIENT, "scripted failure of page " + served);
            }
            List<StoredItem> items = new ArrayList<>();
            while (next < size && !budget.full(items.size(), 0)) {
                items.add(new Stored(next++));
            }
            return new Page(items, next >= size);
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private record Stored(int n) implements StoredItem {
        @Override
        public String json() {
            return "{\"pk\":{\"S\":\"" + n + "\"}}";
        }

        @Override
        public Item item() {
            return Item.of(Map.of("pk", new AttributeValue.S(Integer.toString(n))));
        }
    }
}

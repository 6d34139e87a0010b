package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.core.snapshot.ReadAhead;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * The stream's page read-ahead, on the fake port alone: the next page is fetched on another thread
 * while the reader works through the current one, never more than one page ahead [S7]; a failure,
 * a close or an abandonment while that fetch runs releases as it would without it [S5, S6]; and an
 * engine built with {@link ReadAhead#NONE}, or closed, fetches on the reader's thread.
 * Deadlines are generous (10 s) and only bound waits for what must happen.
 */
class PageReadAheadTest {

    private static final long DEADLINE_S = 10;
    private static final int ROWS = 5;

    private final PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));

    private LeasedSnapshotEngine engine(InMemoryReadPort port, ReadAhead readAhead) {
        return new LeasedSnapshotEngine(port, ledger, () -> { }, new PageBudget(ROWS, 1 << 20), ReadObserver.NONE,
                Cleaner.create(), IdleLimit.DEFAULT, readAhead);
    }

    private static InMemoryReadPort port(int items) {
        return new InMemoryReadPort(Descriptions.active("acct", "things"), items);
    }

    // S7: page 2 is fetched while the reader still holds page 1's first item, on a read-ahead thread;
    // page 1 on the reader's own. Mutant run by hand: LeasedItemStream.nextPage never starting a
    // read-ahead -> "page 2 fetched before the reader asked for it" times out.
    @Example
    void s7_theNextPageIsFetchedOnAnotherThreadWhileTheReaderWorks() throws Exception {
        InMemoryReadPort port = port(4 * ROWS);
        Map<Integer, String> threadOfPage = new ConcurrentHashMap<>();
        CountDownLatch secondFetched = new CountDownLatch(1);
        port.onPage = n -> {
            threadOfPage.put(n, Thread.currentThread().getName());
            if (n == 2) {
                secondFetched.countDown();
            }
        };
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE);
             TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
            snapshot.items().next();
            assertThat(secondFetched.await(DEADLINE_S, TimeUnit.SECONDS))
                    .as("page 2 fetched before the reader asked for it").isTrue();
            assertThat(snapshot.items().stream().count()).as("[S5] every item once").isEqualTo(4 * ROWS - 1);
        }
        assertThat(threadOfPage.get(1)).as("page 1 on the reader's thread").isEqualTo(Thread.currentThread().getName());
        assertThat(threadOfPage.get(2)).as("page 2 read ahead").startsWith("stillpoint-snapshot-read-ahead-");
        assertThat(ledger.inUse()).isZero();
        assertThat(port.openWindows.get()).isZero();
    }

    // S7: at every item the port has served at most one page beyond the one being read, so a stream
    // holds at most two pages. The reader is slower than the port (it waits for the read-ahead of the
    // page after its current one to have started, where one exists), which lets a mutant that reads
    // further ahead show itself. Mutant run by hand: the read-ahead task fetching two pages -> "pages
    // served ... at most one beyond" fails.
    @Example
    void s7_neverMoreThanOnePageAhead() throws Exception {
        int pages = 6;
        InMemoryReadPort port = port(pages * ROWS);
        AtomicInteger served = new AtomicInteger();
        port.onPage = n -> served.set(n);
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE);
             TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
            ItemStream items = snapshot.items();
            for (int i = 0; i < pages * ROWS; i++) {
                items.next();
                int current = i / ROWS + 1;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
                while (current < pages && served.get() < current + 1 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertThat(served.get()).as("pages served while item %d of page %d is read: at most one beyond", i,
                        current).isBetween(current, current + 1);
            }
            assertThat(items.hasNext()).isFalse();
        }
        assertThat(served.get()).isEqualTo(pages);
    }

    // S6: a read-ahead that fails reaches the reader after every item of the page before it, as the
    // failure the port threw, and the lease is already released (permit back, read closed).
    // Mutants run by hand: PageReadAhead.await returning null on a failed fetch -> "the port's failure"
    // fails (the stream just ends); LeasedItemStream.failureAhead always false (the first version of
    // this change) -> "item 0 of the first page" fails: the released lease cut the page short, silently.
    @Example
    void s6_aFailedReadAheadIsThrownAfterThePageBeforeIt() {
        InMemoryReadPort port = port(3 * ROWS);
        port.failAt = InMemoryReadPort.FailAt.SECOND_PAGE;
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE);
             TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
            ItemStream items = snapshot.items();
            assertThat(items.hasNext()).as("the first page fetched").isTrue();
            // The read-ahead of page 2 fails and releases the lease while page 1 is still unread.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
            while (!items.isReleased() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(items.isReleased()).as("[S6] released by the failed read-ahead").isTrue();
            for (int i = 0; i < ROWS; i++) {
                assertThat(items.hasNext()).as("item %d of the first page", i).isTrue();
                items.next();
            }
            assertThatThrownBy(items::hasNext).as("the port's failure")
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT))
                    .hasMessage("scripted failure at SECOND_PAGE");
            assertThat(items.hasNext()).as("nothing after the first error").isFalse();
        }
        assertThat(ledger.inUse()).isZero();
        assertThat(port.openWindows.get()).isZero();
        assertThat(port.closedTwice.get()).isZero();
    }

    // S5: a close while the read-ahead fetch runs waits for it (never interrupts it: a driver
    // interrupted mid-read may lose its connection), then ends the read once; nothing is yielded after.
    // Mutant run by hand: close cancelling with cancel(true) -> "the close waits for the lease the
    // fetch in flight holds" fails (the fetch was interrupted, so the close never waited).
    @Example
    void s5_aCloseWhileTheReadAheadRunsEndsTheReadOnceAfterIt() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        HeldSecondPage held = new HeldSecondPage(3 * ROWS, () -> order.add("page 2 returned"));
        InMemoryReadPort port = held.port;
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE)) {
            TableSnapshot snapshot = engine.openTableSnapshot("acct", "things");
            snapshot.items().next();
            held.awaitReached();
            Thread closer = new Thread(() -> {
                snapshot.close();
                order.add("closed");
            });
            closer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
            while (closer.getState() != Thread.State.BLOCKED && closer.isAlive() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(closer.getState()).as("the close waits for the lease the fetch in flight holds")
                    .isEqualTo(Thread.State.BLOCKED);
            held.release();
            closer.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            assertThat(closer.isAlive()).as("the close returned").isFalse();
            assertThat(order).as("the close waited for the fetch in flight").containsExactly("page 2 returned", "closed");
            assertThat(snapshot.items().hasNext()).as("[S5] nothing after close").isFalse();
            assertThat(snapshot.items().isReleased()).isTrue();
        }
        assertThat(ledger.inUse()).isZero();
        assertThat(port.openWindows.get()).isZero();
        assertThat(port.closedTwice.get()).isZero();
    }

    // S5: a stream dropped while its read-ahead runs can be collected while the fetch is still running
    // (the read-ahead task refers to the lease, never to the stream), and is then reclaimed once the
    // fetch ends. Mutant run by hand: the task built in LeasedItemStream as () -> lease.fetch(budget),
    // which captures the stream through its budget field -> "collectable while its read-ahead runs" fails.
    @Example
    void s5_aStreamDroppedWhileItsReadAheadRunsIsReclaimed() throws Exception {
        HeldSecondPage held = new HeldSecondPage(3 * ROWS, () -> { });
        InMemoryReadPort port = held.port;
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE)) {
            WeakReference<ItemStream> dropped = openAndDrop(engine);
            held.awaitReached();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
            while (dropped.get() != null && System.nanoTime() < deadline) {
                System.gc();
                Thread.onSpinWait();
            }
            assertThat(dropped.get()).as("[S5] the dropped stream is collectable while its read-ahead runs").isNull();
            held.release();
            while (ledger.inUse() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(ledger.inUse()).as("[S5] reclaimed: the permit is back").isZero();
            assertThat(port.openWindows.get()).as("[S5] reclaimed: the read is closed").isZero();
        } finally {
            held.release();
        }
    }

    private static WeakReference<ItemStream> openAndDrop(LeasedSnapshotEngine engine) {
        ItemStream items = engine.openTableSnapshot("acct", "things").items();
        items.next();
        return new WeakReference<>(items);
    }

    // The wait for a page read ahead is not interruptible, as a fetch on the reader's thread is not:
    // an interrupt meanwhile neither loses the page nor ends the stream, and is kept for the caller.
    // Mutant run by hand: PageReadAhead.await returning null on an interrupt -> "every item" fails.
    @Example
    void anInterruptWhileWaitingForThePageIsKept() throws Exception {
        HeldSecondPage held = new HeldSecondPage(2 * ROWS, () -> { });
        try (LeasedSnapshotEngine engine = engine(held.port, ReadAhead.ONE_PAGE);
             TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
            AtomicReference<Long> count = new AtomicReference<>();
            AtomicReference<Boolean> interruptKept = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                count.set(snapshot.items().stream().count());
                interruptKept.set(Thread.currentThread().isInterrupted());
            });
            reader.start();
            held.awaitReached();
            // Interrupted only once it waits for page 2: earlier, the page may be done before it asks.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
            while (reader.getState() != Thread.State.WAITING && reader.isAlive() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(reader.getState()).as("the reader waits for the page read ahead").isEqualTo(Thread.State.WAITING);
            reader.interrupt();
            held.release();
            reader.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            assertThat(count.get()).as("every item, the interrupt notwithstanding").isEqualTo(2L * ROWS);
            assertThat(interruptKept.get()).as("the interrupt is kept for the caller").isTrue();
        }
        assertThat(ledger.inUse()).isZero();
    }

    // The read-ahead threads are daemons whoever reads, so an unclosed stream never keeps a JVM alive. A
    // new thread inherits the daemon flag of the thread that makes it (here the reader's, which submits
    // the fetch), hence a reader that is not a daemon; JUnit's and PIT's threads may be.
    @Example
    void theReadAheadThreadsAreDaemonsWhenTheReaderIsNot() throws Exception {
        InMemoryReadPort port = port(3 * ROWS);
        Map<Integer, Boolean> daemonOfPage = new ConcurrentHashMap<>();
        port.onPage = n -> daemonOfPage.put(n, Thread.currentThread().isDaemon());
        AtomicReference<Long> count = new AtomicReference<>();
        try (LeasedSnapshotEngine engine = engine(port, ReadAhead.ONE_PAGE)) {
            Thread reader = new Thread(() -> {
                try (TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
                    count.set(snapshot.items().stream().count());
                }
            }, "test-reader-not-a-daemon");
            reader.setDaemon(false);
            reader.start();
            reader.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            assertThat(count.get()).as("every item").isEqualTo(3L * ROWS);
        }
        assertThat(daemonOfPage).as("page 1 on the reader's thread, pages 2 and 3 read ahead")
                .containsEntry(1, false).containsEntry(2, true).containsEntry(3, true);
        assertThat(ledger.inUse()).isZero();
    }

    // ReadAhead.NONE, and an engine closed while its stream is open: every page is fetched on the
    // reader's thread. Mutant run by hand: PageReadAhead ignoring NONE -> "on the reader's thread" fails.
    @Example
    void withoutReadAheadOrAfterTheEngineClosedPagesAreFetchedOnTheReadersThread() {
        for (boolean closeEngineFirst : new boolean[] {false, true}) {
            InMemoryReadPort port = port(3 * ROWS);
            Map<Integer, String> threadOfPage = new ConcurrentHashMap<>();
            port.onPage = n -> threadOfPage.put(n, Thread.currentThread().getName());
            LeasedSnapshotEngine engine = engine(port, closeEngineFirst ? ReadAhead.ONE_PAGE : ReadAhead.NONE);
            try (TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
                if (closeEngineFirst) {
                    engine.close();
                }
                assertThat(snapshot.items().stream().count()).isEqualTo(3L * ROWS);
            } finally {
                engine.close();
            }
            assertThat(threadOfPage).as("pages fetched (engine closed first: %s)", closeEngineFirst).hasSize(3);
            assertThat(threadOfPage.values()).as("every page on the reader's thread (engine closed first: %s)",
                    closeEngineFirst).containsOnly(Thread.currentThread().getName());
            assertThat(ledger.inUse()).isZero();
        }
    }

    /** A port whose second page fetch holds until the test releases it, then runs {@code afterRelease}. */
    private static final class HeldSecondPage {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);
        final InMemoryReadPort port;

        HeldSecondPage(int items, Runnable afterRelease) {
            port = port(items);
            port.onPage = n -> {
                if (n == 2) {
                    reached.countDown();
                    await(released);
                    afterRelease.run();
                }
            };
        }

        void awaitReached() throws InterruptedException {
            assertThat(reached.await(DEADLINE_S, TimeUnit.SECONDS)).as("the read-ahead of page 2 started").isTrue();
        }

        void release() {
            released.countDown();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(DEADLINE_S, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the page go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

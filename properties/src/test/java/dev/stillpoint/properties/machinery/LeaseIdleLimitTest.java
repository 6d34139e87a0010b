package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.core.snapshot.ReadAhead;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The idle limit of the shared snapshot machinery [L1], over a fake read port: a stream that
 * fetches no page for the limit is released by the engine's own timer (no garbage collection:
 * the test keeps the stream strongly reachable throughout), its permit returned, its window
 * closed, the poller woken; the stream then fails SnapshotExpired naming the limit. A stream that
 * keeps fetching is never expired, and closing the engine stops the timer's thread.
 */
class LeaseIdleLimitTest {

    private static final String ACCOUNT = "acct";
    private static final String TABLE = "things";

    private final AtomicInteger wakes = new AtomicInteger();
    private final InMemoryReadPort port = new InMemoryReadPort(Descriptions.active(ACCOUNT, TABLE), 25);
    private final PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(1));

    private LeasedSnapshotEngine engine(Duration limit) {
        return new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet, new PageBudget(4, 1 << 20),
                ReadObserver.NONE, Cleaner.create(), new IdleLimit(limit));
    }

    // [L1] past the limit the engine ends the read, returns the permit and wakes the poller, with
    // the stream still referenced (so the Cleaner cannot be what released it).
    @Test
    void l1_idleStreamIsReleasedByTheEngineAndFailsSnapshotExpired() throws Exception {
        try (LeasedSnapshotEngine engine = engine(Duration.ofMillis(300))) {
            TableSnapshot snapshot = engine.openTableSnapshot(ACCOUNT, TABLE);
            snapshot.items().next();
            long fetched = System.nanoTime();
            assertThat(ledger.inUse()).isEqualTo(1);
            await(() -> ledger.inUse() == 0, Duration.ofSeconds(10), "permit back after the idle limit");
            long afterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - fetched);
            assertThat(afterMillis).as("released after the limit, not before").isGreaterThanOrEqualTo(300);
            assertThat(port.openWindows.get()).as("read window closed").isZero();
            // The release returns the permit, then wakes the poller: the timer thread may be between the two.
            await(() -> wakes.get() > 0, Duration.ofSeconds(10), "the release woke the poller");
            assertThat(wakes.get()).as("the release woke the poller once").isEqualTo(1);
            assertThat(snapshot.items().isReleased()).isTrue();
            // Items of the fetched page are left, yet nothing is delivered after the release.
            assertThatThrownBy(() -> snapshot.items().hasNext())
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
                        assertThat(e.getMessage()).contains("300 ms").contains("snapshotIdleLimit").contains(TABLE);
                    });
            snapshot.close();
            assertThat(port.closedTwice.get()).as("the close after the expiry does nothing again").isZero();
            assertThat(wakes.get()).isEqualTo(1);
            // The permit is really free: a new snapshot opens.
            engine.openTableSnapshot(ACCOUNT, TABLE).close();
        }
    }

    // [L1] the idle clock restarts at every page fetch: a reader slower than the limit overall but
    // fetching a page more often than the limit reads every item (25 items, 4 a page, a page per
    // 400 ms, limit 1 s, 2.5 s in all).
    @Test
    void l1_aStreamThatKeepsFetchingIsNeverExpired() throws Exception {
        try (LeasedSnapshotEngine engine = engine(Duration.ofSeconds(1))) {
            TableSnapshot snapshot = engine.openTableSnapshot(ACCOUNT, TABLE);
            int read = 0;
            long start = System.nanoTime();
            while (snapshot.items().hasNext()) {
                snapshot.items().next();
                read++;
                // The reader's own pace (100 ms an item), not a wait for another thread.
                new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS);
            }
            assertThat(read).isEqualTo(25);
            assertThat(System.nanoTime() - start).isGreaterThan(Duration.ofSeconds(2).toNanos());
            assertThat(ledger.inUse()).isZero();
            assertThat(wakes.get()).isEqualTo(1);
        }
    }

    // [L1] a page fetched before the limit moves the expiry: the timer's first look finds the stream
    // fetched recently and looks again, and the release comes a whole limit after that fetch.
    @Test
    void l1_aFetchMovesTheExpiryAndTheTimerLooksAgain() throws Exception {
        try (LeasedSnapshotEngine engine = engine(Duration.ofSeconds(1))) {
            assertThat(engine.idleLimit()).as("[L1] the engine's own limit").isEqualTo(new IdleLimit(Duration.ofSeconds(1)));
            TableSnapshot snapshot = engine.openTableSnapshot(ACCOUNT, TABLE);
            for (int i = 0; i < 4; i++) {
                snapshot.items().next();
            }
            // The reader's own pace before its second page, not a wait for another thread.
            new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS);
            // Read before the fetch: the lease notes the fetch inside next(), which a busy machine may return from
            // milliseconds later (998 ms were measured from after it in a saturated run).
            long fetched = System.nanoTime();
            snapshot.items().next();
            await(() -> ledger.inUse() == 0, Duration.ofSeconds(10), "[L1] released by a later look of the timer");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - fetched))
                    .as("[L1] released a whole limit after the last fetch, not at the first look").isGreaterThanOrEqualTo(1000);
            snapshot.close();
        }
    }

    // [L1] the idle clock starts when the stream is handed out, not when the open began: an open slower
    // than the limit (the engine's clock moves ten limits while the open is held before its items)
    // hands out a stream that the timer looks at again and again without expiring it.
    @Test
    void l1_theIdleClockStartsAtTheHandOutNotAtTheOpensStart() throws Exception {
        Duration limit = Duration.ofMillis(200);
        IdleTimers.Readings clock = new IdleTimers.Readings();
        ReadObserver slowOpen = clock.slowOpen(limit.multipliedBy(10));
        try (LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet,
                new PageBudget(4, 1 << 20), slowOpen, Cleaner.create(), new IdleLimit(limit), ReadAhead.NONE,
                StorageEvents.NONE, clock)) {
            TableSnapshot snapshot = engine.openTableSnapshot(ACCOUNT, TABLE);
            assertThat(clock.timerReadings.tryAcquire(3, 10, TimeUnit.SECONDS))
                    .as("[L1] the timer looked three times (a released lease is not looked at again)").isTrue();
            assertThat(snapshot.items().isReleased()).as("[L1] not expired: no time passed on the clock since the hand-out")
                    .isFalse();
            assertThat(snapshot.items().next()).isNotNull();
            snapshot.close();
            assertThat(ledger.inUse()).isZero();
        }
    }

    // R1: an invalid table name is a validation error before a permit is taken or the port is asked.
    @Test
    void r1_anInvalidNameIsRefusedBeforeThePort() {
        try (LeasedSnapshotEngine engine = engine(Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> engine.openTableSnapshot(ACCOUNT, "x!"))
                    .isInstanceOfSatisfying(StorageException.class, e ->
                            assertThat(e.reason()).as("[R1] Validation, never TableNotFound").isEqualTo(ErrorReason.VALIDATION));
            assertThat(port.begun.get()).as("[R1] the read port untouched").isZero();
            assertThat(ledger.inUse()).isZero();
        }
    }

    // [L1] the timer is a daemon thread even when the first snapshot is opened by a non-daemon thread
    // (a thread inherits its builder's flag; PIT's and JUnit's runners may be daemons), and closing
    // the engine ends it (no thread leaks).
    @Test
    void l1_closingTheEngineEndsTheIdleTimerThread() throws Exception {
        Set<Thread> before = IdleTimers.threads();
        LeasedSnapshotEngine engine = engine(Duration.ofSeconds(30));
        TableSnapshot[] opened = new TableSnapshot[1];
        Thread opener = new Thread(() -> opened[0] = engine.openTableSnapshot(ACCOUNT, TABLE));
        opener.setDaemon(false);
        opener.start();
        opener.join(TimeUnit.SECONDS.toMillis(10));
        TableSnapshot snapshot = opened[0];
        Set<Thread> mine = IdleTimers.threads();
        mine.removeAll(before);
        assertThat(mine).as("one timer thread for the engine").hasSize(1);
        Thread timer = mine.iterator().next();
        assertThat(timer.isDaemon()).as("[L1] the idle timer is a daemon although its builder was not").isTrue();
        engine.close();
        timer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(timer.isAlive()).as("timer thread ended by the engine's close").isFalse();
        snapshot.close();
        assertThat(ledger.inUse()).isZero();
    }

    // [L1] an open engine with no snapshot left to watch lets its timer thread go (after the timer's
    // 5 s keep-alive), so an embedding server idle for hours holds no thread for snapshots it no longer
    // has; the next snapshot starts one again. Mutant recorded: allowCoreThreadTimeOut removed from
    // IdleWatch keeps the thread, failing "the timer thread ends once nothing is watched".
    @Test
    void l1_anEngineWithNothingToWatchLetsItsTimerThreadGo() throws Exception {
        Set<Thread> before = IdleTimers.threads();
        try (LeasedSnapshotEngine engine = engine(Duration.ofMillis(200))) {
            engine.openTableSnapshot(ACCOUNT, TABLE).close();
            Set<Thread> mine = IdleTimers.threads();
            mine.removeAll(before);
            assertThat(mine).as("one timer thread for the engine").hasSize(1);
            Thread timer = mine.iterator().next();
            // The timer's one look (at 200 ms) finds the lease released and schedules nothing more.
            await(() -> !timer.isAlive(), Duration.ofSeconds(20), "[L1] the timer thread ends once nothing is watched");
            engine.openTableSnapshot(ACCOUNT, TABLE).close();
            assertThat(ledger.inUse()).as("the engine still opens snapshots").isZero();
        }
    }

    private static void await(BooleanSupplier condition, Duration deadline, String what) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError(what + ": not within " + deadline);
            }
            new CountDownLatch(1).await(5, TimeUnit.MILLISECONDS);
        }
    }
}

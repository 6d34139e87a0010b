package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.core.snapshot.ReadAhead;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The segmented snapshot in the shared machinery [B2, D7, L1, S5], over the fake read port (whose
 * segments are ranges of ONE read, as SQLite serves them): permits all or none, the union of the
 * segments is the single stream's items, and the read (the table's reader hold) ends with the LAST
 * segment, on every path.
 */
class SegmentedSnapshotProperties {

    private static final String ACCOUNT = "acct";
    private static final String TABLE = "things";
    private static final int SIZE = 25;

    private final AtomicInteger wakes = new AtomicInteger();

    private LeasedSnapshotEngine engine(InMemoryReadPort port, PermitLedger ledger) {
        return new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet, new PageBudget(4, 1 << 20),
                ReadObserver.NONE, Cleaner.create(), IdleLimit.DEFAULT, ReadAhead.NONE);
    }

    private static InMemoryReadPort port() {
        return new InMemoryReadPort(Descriptions.active(ACCOUNT, TABLE), SIZE);
    }

    // [B2, D7] all or none: with `held` permits out of `capacity`, a snapshot of `segments` either gets
    // every permit it asked for or is refused LimitExceeded naming the count, taking none and opening nothing.
    @Property
    void b2_permitsAreTakenAllOrNone(@ForAll @IntRange(min = 1, max = 6) int capacity,
                                     @ForAll @IntRange(min = 0, max = 6) int held,
                                     @ForAll @IntRange(min = 1, max = 8) int segments) {
        int holding = Math.min(held, capacity);
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(capacity));
        LeasedSnapshotEngine engine = engine(port, ledger);
        List<TableSnapshot> singles = new ArrayList<>();
        for (int i = 0; i < holding; i++) {
            singles.add(engine.openTableSnapshot(ACCOUNT, TABLE));
        }
        int begunBefore = port.begun.get();
        Throwable thrown = catchThrowable(() -> engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, segments).close());
        if (segments <= capacity - holding) {
            assertThat(thrown).isNull();
        } else {
            assertThat(thrown).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED);
                assertThat(e.getMessage()).contains("needs " + segments + " permits")
                        .contains((capacity - holding) + " are free")
                        .as("[D7] the refusal names the holders of now")
                        .contains(holding == 0 ? "(none held)" : "(" + holding + " held by table snapshots)")
                        .as("[B3] a count above the capacity is said to be one no wait grants")
                        .contains(segments > capacity ? "permits in all" : "retry later");
            });
            assertThat(port.begun.get()).as("a refused snapshot opens no read").isEqualTo(begunBefore);
        }
        assertThat(ledger.inUse()).as("[B2] no permit kept by a refused or closed segmented snapshot")
                .isEqualTo(holding);
        singles.forEach(TableSnapshot::close);
        assertThat(ledger.inUse()).isZero();
        assertThat(port.openWindows.get()).isZero();
        engine.close();
    }

    // [B2] the union of the segments, in segment order, is exactly the single stream's items, each
    // segment in key order and disjoint from the others; one permit per segment while they are open.
    @Property
    void b2_unionOfTheSegmentsIsTheSingleStream(@ForAll @IntRange(min = 1, max = 8) int segments) {
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(8));
        try (LeasedSnapshotEngine engine = engine(port, ledger)) {
            List<String> single = new ArrayList<>();
            try (TableSnapshot s = engine.openTableSnapshot(ACCOUNT, TABLE)) {
                s.items().forEachRemaining(i -> single.add(i.json()));
            }
            List<String> union = new ArrayList<>();
            try (SegmentedSnapshot seg = engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.INCLUDED, segments)) {
                assertThat(seg.segments()).hasSize(segments);
                assertThat(ledger.inUse()).as("one permit per segment").isEqualTo(segments);
                assertThat(port.storedKeysAsked).isEqualTo(StoredKeys.INCLUDED);
                for (ItemStream stream : seg.segments()) {
                    stream.forEachRemaining(i -> union.add(i.json()));
                }
            }
            assertThat(union).as("[B2] segments in order hold exactly the single stream's items").isEqualTo(single);
            assertThat(ledger.inUse()).isZero();
            assertThat(port.openWindows.get()).isZero();
            assertThat(port.openSegments.get()).isZero();
            assertThat(port.closedTwice.get()).isZero();
        }
    }

    /** How one segment ends. */
    enum End { DRAIN, CLOSE, READ_SOME_THEN_CLOSE }

    // [B2, S5] the segments end in any order and any way; the shared read (the table's reader: DeleteTable
    // and the drop wait for it) stays open until the LAST segment ended, and each segment's permit comes back
    // as that segment ends. Nothing is closed twice; every release wakes the poller.
    @Property
    void b2_theReadEndsWithTheLastSegment(@ForAll("ends") List<End> ends, @ForAll("seed") long seed) {
        int segments = ends.size();
        wakes.set(0); // one instance serves every try of a property
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(8));
        try (LeasedSnapshotEngine engine = engine(port, ledger)) {
            SegmentedSnapshot seg = engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, segments);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < segments; i++) {
                order.add(i);
            }
            java.util.Collections.shuffle(order, new java.util.Random(seed));
            int ended = 0;
            for (int index : order) {
                ItemStream stream = seg.segments().get(index);
                switch (ends.get(index)) {
                    case DRAIN -> stream.forEachRemaining(i -> { });
                    case CLOSE -> stream.close();
                    case READ_SOME_THEN_CLOSE -> {
                        if (stream.hasNext()) {
                            stream.next();
                        }
                        stream.close();
                    }
                }
                ended++;
                assertThat(stream.isReleased()).isTrue();
                assertThat(ledger.inUse()).as("permits of the segments not ended yet").isEqualTo(segments - ended);
                assertThat(port.openWindows.get())
                        .as("[B2] the shared read is held until the last segment ends (%d of %d ended)", ended, segments)
                        .isEqualTo(ended < segments ? 1 : 0);
                assertThat(wakes.get()).as("each segment's release wakes the poller").isEqualTo(ended);
            }
            seg.close();
            assertThat(port.openSegments.get()).isZero();
            assertThat(port.closedTwice.get()).isZero();
            assertThat(port.closedAfterHandOver.get()).isZero();
        }
    }

    // [B2, S5, S6] an open that fails at any step, or a segment whose page fails, returns every permit
    // and leaves no read, no segment open; a failing segment ends only itself.
    @Property
    void b2_everyFailurePathReleasesEverything(@ForAll("failures") InMemoryReadPort.FailAt failAt,
                                               @ForAll @IntRange(min = 1, max = 5) int segments) {
        wakes.set(0); // one instance serves every try of a property
        InMemoryReadPort port = port();
        port.failAt = failAt;
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(5));
        try (LeasedSnapshotEngine engine = engine(port, ledger)) {
            if (failAt == InMemoryReadPort.FailAt.SEGMENT_PAGE) {
                SegmentedSnapshot seg = engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, segments);
                Throwable thrown = catchThrowable(() -> seg.segments().get(0).hasNext());
                assertThat(thrown).isInstanceOf(StorageException.class);
                assertThat(ledger.inUse()).as("the failed segment gave its permit back").isEqualTo(segments - 1);
                assertThat(port.openWindows.get()).as("the others still read").isEqualTo(segments > 1 ? 1 : 0);
                seg.close();
            } else {
                Throwable thrown = catchThrowable(() -> engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, segments));
                assertThat(thrown).isInstanceOf(StorageException.class).hasMessageContaining("scripted failure");
            }
            assertThat(ledger.inUse()).as("[B2] no permit after a failure").isZero();
            assertThat(port.openWindows.get()).isZero();
            assertThat(port.openSegments.get()).isZero();
            assertThat(port.closedTwice.get()).isZero();
            assertThat(port.closedAfterHandOver.get()).isZero();
            assertThat(wakes.get()).as("each permit's return wakes the poller").isEqualTo(segments);
        }
    }

    // [B2] an adapter that cuts the read into more or fewer segments than asked is refused INTERNAL naming both
    // counts, and every permit, segment and the shared read come back: never N-1 streams passed off as N.
    @Example
    void b2_aMiscutIsRefusedAndReleasesEverything() {
        for (int miscut : new int[] {-1, 1, 2}) {
            wakes.set(0);
            InMemoryReadPort port = port();
            port.miscut = miscut;
            PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(5));
            try (LeasedSnapshotEngine engine = engine(port, ledger)) {
                assertThat(catchThrowable(() -> engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, 3)))
                        .as("[B2] a cut of %d segments for 3", 3 + miscut)
                        .isInstanceOfSatisfying(StorageException.class, e -> {
                            assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                            assertThat(e.getMessage()).contains("into " + (3 + miscut) + " segments, 3 were asked for");
                        });
                assertThat(ledger.inUse()).as("[B2] every permit back").isZero();
                assertThat(port.openWindows.get()).as("the shared read ended").isZero();
                assertThat(port.openSegments.get()).as("every segment closed, the extra ones too").isZero();
                assertThat(port.closedTwice.get()).isZero();
            }
        }
    }

    // [B2] fewer than one segment is the caller's error, named; nothing is taken.
    @Example
    void b2_zeroSegmentsIsRefusedByName() {
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));
        try (LeasedSnapshotEngine engine = engine(port, ledger)) {
            assertThat(catchThrowable(() -> engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, 0)))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("got 0");
                    });
            assertThat(ledger.inUse()).isZero();
            assertThat(port.begun.get()).isZero();
        }
    }

    // [B2, L1] the idle limit sees the segments as one reader: a segment not read while another fetches
    // pages more often than the limit is not expired, though it goes unread for longer than the limit;
    // once no segment fetched for the limit, every segment expires, each permit is returned and the
    // shared read ends, by the engine's own timer.
    @Example
    void b2_l1_theSegmentsAreIdleTogether() throws Exception {
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));
        try (LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet,
                new PageBudget(1, 1 << 20), ReadObserver.NONE, Cleaner.create(), new IdleLimit(Duration.ofMillis(500)),
                ReadAhead.NONE)) {
            SegmentedSnapshot seg = engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, 2);
            ItemStream read = seg.segments().get(0);
            ItemStream waiting = seg.segments().get(1);
            long start = System.nanoTime();
            for (int i = 0; i < 8; i++) {
                // The reader's own pace (200 ms a page, one item a page), not a wait for another thread.
                new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS);
                read.next();
            }
            assertThat(System.nanoTime() - start).isGreaterThan(Duration.ofMillis(1500).toNanos());
            assertThat(waiting.isReleased()).as("[B2, L1] a segment waiting while another reads is not idle").isFalse();
            assertThat(ledger.inUse()).isEqualTo(2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (ledger.inUse() > 0 && System.nanoTime() < deadline) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS); // a bounded poll of the timer's work
            }
            assertThat(ledger.inUse()).as("both segments expired together").isZero();
            assertThat(read.isReleased()).isTrue();
            assertThat(waiting.isReleased()).isTrue();
            assertThat(port.openWindows.get()).isZero();
            assertThat(catchThrowable(waiting::hasNext)).isInstanceOfSatisfying(StorageException.class,
                    e -> assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED));
            seg.close();
        }
    }

    // [B2, R1, S6] a segmented open takes the single open's steps in the same order: an invalid name is
    // refused Validation before a permit or the port (never TableNotFound), and the open pauses after the
    // definition and before the items, where the tests of a DeleteTable racing an open hold it.
    @Example
    void b2_aSegmentedOpenChecksTheNameFirstAndPausesWhereTheSingleOpenDoes() {
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));
        List<PausePoint> pauses = new ArrayList<>();
        ReadObserver recording = new ReadObserver() {
            @Override
            public void atPause(PausePoint point) {
                pauses.add(point);
            }
        };
        try (LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet,
                new PageBudget(4, 1 << 20), recording, Cleaner.create(), IdleLimit.DEFAULT, ReadAhead.NONE)) {
            assertThat(catchThrowable(() -> engine.openTableSnapshot(ACCOUNT, "x!", StoredKeys.OMITTED, 2)))
                    .isInstanceOfSatisfying(StorageException.class, e ->
                            assertThat(e.reason()).as("[R1] Validation, never TableNotFound").isEqualTo(ErrorReason.VALIDATION));
            assertThat(port.begun.get()).as("[R1] the read port untouched").isZero();
            assertThat(ledger.inUse()).isZero();

            engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, 2).close();
            assertThat(pauses).as("[S6] the open's pause points, in order")
                    .containsExactly(PausePoint.AFTER_DEFINITION, PausePoint.BEFORE_ITEMS);
        }
    }

    // [B2, L1] the segments' idle clock starts when they are handed out, not when the open began: an open
    // held ten limits before its items hands out segments the timer looks at again and again without
    // expiring them (no time passes on the engine's clock after the hand-out).
    @Example
    void b2_l1_theSegmentsIdleClockStartsAtTheHandOut() throws Exception {
        Duration limit = Duration.ofMillis(200);
        IdleTimers.Readings clock = new IdleTimers.Readings();
        ReadObserver slowOpen = clock.slowOpen(limit.multipliedBy(10));
        InMemoryReadPort port = port();
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));
        try (LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, wakes::incrementAndGet,
                new PageBudget(4, 1 << 20), slowOpen, Cleaner.create(), new IdleLimit(limit), ReadAhead.NONE,
                StorageEvents.NONE, clock)) {
            SegmentedSnapshot seg = engine.openTableSnapshot(ACCOUNT, TABLE, StoredKeys.OMITTED, 2);
            assertThat(clock.timerReadings.tryAcquire(6, 10, TimeUnit.SECONDS))
                    .as("[L1] the timer looked at each segment three times").isTrue();
            assertThat(seg.segments()).as("[B2, L1] not expired: no time passed since the hand-out")
                    .noneMatch(ItemStream::isReleased);
            assertThat(ledger.inUse()).isEqualTo(2);
            seg.close();
            assertThat(ledger.inUse()).isZero();
        }
    }

    @Provide
    Arbitrary<List<End>> ends() {
        return Arbitraries.of(End.class).list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<Long> seed() {
        return Arbitraries.longs();
    }

    @Provide
    Arbitrary<InMemoryReadPort.FailAt> failures() {
        return Arbitraries.of(InMemoryReadPort.FailAt.BEGIN, InMemoryReadPort.FailAt.DEFINITION,
                InMemoryReadPort.FailAt.PIN, InMemoryReadPort.FailAt.PAGES, InMemoryReadPort.FailAt.SEGMENT_PAGE);
    }
}

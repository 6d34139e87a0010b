package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.TableCreation;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The ports module's control-plane pass, table creation and snapshot stream, on fakes (no
 * database): what the poller is told after a pass [D8], what CreateTable wakes [D8], and what a
 * stream delivers and reports page by page [S5, S7]. Written for the survivors of PIT on ports
 * (MUTATION.md); each test names the rule it checks.
 */
class ControlPlanePassTest {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static ControlPlanePass pass(FakeCatalog catalog) {
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        return new ControlPlanePass(catalog, deletion, TimeSource.SYSTEM);
    }

    private static void row(FakeCatalog catalog, String table, TableState state) {
        catalog.rows.put(table, new TableRecord(Descriptions.active("acct", table), state));
    }

    // D8: a pass tells the poller when the next transition is due: the earliest of the CREATING tables
    // not yet due and the DELETING tables whose drop is not due, whatever order the catalog lists them in.
    @Test
    void d8_aPassReportsTheEarliestDueTransition() {
        for (int rotation = 0; rotation < 3; rotation++) {
            FakeCatalog catalog = new FakeCatalog();
            List<TableState> states = new ArrayList<>(List.of(
                    new TableState.Creating(NOW.plus(Duration.ofHours(2))),
                    new TableState.Deleting(NOW.plus(Duration.ofHours(1)), TableState.DropRetry.SCHEDULED),
                    new TableState.Creating(NOW.plus(Duration.ofHours(3)))));
            java.util.Collections.rotate(states, rotation);
            for (int i = 0; i < states.size(); i++) {
                row(catalog, "t" + i + "_table", states.get(i));
            }
            PollerEvent.PassFinished finished = pass(catalog).run();
            assertThat(finished.nextDue()).as("[D8] the earliest due transition (rotation %d)", rotation)
                    .contains(NOW.plus(Duration.ofHours(1)));
            assertThat(finished.deferredDrops()).as("[D8] nothing deferred").isZero();
            assertThat(catalog.calls).as("[D8] nothing activated or dropped before it is due")
                    .noneMatch(c -> c.startsWith("activate") || c.startsWith("drop"));
        }
    }

    // D8: a CREATING table not yet due is reported alone; a due one is activated and reports nothing.
    @Test
    void d8_aCreatingTableIsActivatedWhenDueAndReportedWhenNot() {
        FakeCatalog later = new FakeCatalog();
        row(later, "later", new TableState.Creating(NOW.plus(Duration.ofMinutes(5))));
        assertThat(pass(later).run().nextDue()).as("[D8] a CREATING table's activation time")
                .contains(NOW.plus(Duration.ofMinutes(5)));

        FakeCatalog due = new FakeCatalog();
        row(due, "due", new TableState.Creating(NOW.minusSeconds(1)));
        PollerEvent.PassFinished finished = pass(due).run();
        assertThat(due.calls).as("[D8] a due CREATING table is activated").contains("activate due");
        assertThat(finished.nextDue()).as("[D8] nothing left due once it is activated").isEmpty();
    }

    // D8: a drop that failed for another reason than a lock wait is retried on the idle sweep, not the
    // active loop: the pass reports it as due, not as deferred.
    @Test
    void d8_aFailedDropIsReportedDueNotDeferred() {
        FakeCatalog catalog = new FakeCatalog();
        catalog.dropAnswer = t -> new DropResult(DropOutcome.OTHER_FAILURE, "a view depends on it");
        Instant dueAt = NOW.minusSeconds(2);
        row(catalog, "viewed", new TableState.Deleting(dueAt, TableState.DropRetry.FAILED));
        PollerEvent.PassFinished finished = pass(catalog).run();
        assertThat(finished.deferredDrops()).as("[D8] a non-lock failure is not deferred").isZero();
        assertThat(finished.nextDue()).as("[D8] a failed drop stays due").contains(dueAt);
    }

    // D5, D8: the poller's attempt on a DELETING table whose delay has not run out is NOT_DUE (it
    // touches nothing), so the pass reports its due time.
    @Test
    void d5_aRetryBeforeTheDueTimeIsNotDue() {
        FakeCatalog catalog = new FakeCatalog();
        row(catalog, "scheduled", new TableState.Deleting(NOW.plus(Duration.ofMinutes(1)), TableState.DropRetry.SCHEDULED));
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        assertThat(deletion.retryDrop("acct", "scheduled")).as("[D5] not due yet").isEqualTo(TableDeletion.Result.NOT_DUE);
        assertThat(catalog.rows).containsKey("scheduled");
    }

    // D8: CreateTable wakes the poller, which activates the table when due.
    @Test
    void d8_createTableWakesThePoller() {
        FakeCatalog catalog = new FakeCatalog();
        AtomicInteger wakes = new AtomicInteger();
        new TableCreation(catalog, TimeSource.SYSTEM, wakes::incrementAndGet).createTable(Descriptions.request("acct", "fresh"));
        assertThat(wakes.get()).as("[D8] CreateTable wakes the poller once").isEqualTo(1);
        assertThat(catalog.rows.get("fresh").state()).isInstanceOf(TableState.Creating.class);
    }

    // S5, S7: a stream delivers every item of every page, the last one included (its items are handed
    // out after the lease was released as drained), and reports each page to the observer.
    @Test
    void s7_everyPageIsDeliveredAndReported() {
        for (int rows : new int[] {4, 5, 25, 100}) {
            InMemoryReadPort port = new InMemoryReadPort(Descriptions.active("acct", "things"), 25);
            List<Integer> pages = new ArrayList<>();
            ReadObserver observer = new ReadObserver() {
                @Override
                public void pageRead(Page page) {
                    pages.add(page.items().size());
                }
            };
            PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(2));
            LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, () -> { },
                    new PageBudget(rows, 1 << 20), observer, Cleaner.create());
            try (TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
                assertThat(snapshot.items().stream().count()).as("[S5] every item at a page of %d", rows).isEqualTo(25);
                assertThat(snapshot.items().isReleased()).as("[S5] drained, released").isTrue();
            }
            assertThat(pages.stream().mapToInt(Integer::intValue).sum())
                    .as("[S7] every page reported to the observer at a page of %d", rows).isEqualTo(25);
            assertThat(pages).as("[S7] no page over the row budget").allMatch(n -> n <= rows);
            assertThat(ledger.inUse()).isZero();
            assertThat(ledger.capacity()).isEqualTo(2);
        }
    }

    // S1, S4: the stream hands out the port's items themselves, each once, and an open passes both
    // pause points, in order, inside its read window [K2].
    @Test
    void s1_theStreamDeliversThePortsItemsAfterBothPauses() {
        InMemoryReadPort port = new InMemoryReadPort(Descriptions.active("acct", "things"), 7);
        List<dev.stillpoint.ports.out.PausePoint> pauses = new ArrayList<>();
        ReadObserver observer = new ReadObserver() {
            @Override
            public void atPause(dev.stillpoint.ports.out.PausePoint point) {
                pauses.add(point);
            }
        };
        LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, new PermitLedger(PermitPool.withCapacity(1)),
                () -> { }, new PageBudget(3, 1 << 20), observer, Cleaner.create());
        List<dev.stillpoint.ports.in.StoredItem> items = new ArrayList<>();
        try (TableSnapshot snapshot = engine.openTableSnapshot("acct", "things")) {
            while (snapshot.items().hasNext()) {
                items.add(snapshot.items().next());
            }
        }
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        soft.assertThat(pauses).as("[K2] both pause points, in order").containsExactly(
                dev.stillpoint.ports.out.PausePoint.AFTER_DEFINITION, dev.stillpoint.ports.out.PausePoint.BEFORE_ITEMS);
        soft.assertThat(items).as("[S4] the port's items, none null").hasSize(7).doesNotContainNull();
        soft.assertThat(items.stream().filter(java.util.Objects::nonNull).map(i -> i.json()).distinct().count())
                .as("[S4] the port's items, none twice").isEqualTo(7);
        soft.assertAll();
    }

    // S7: a page is full at its row budget or once it holds the byte budget, not one item later.
    @Test
    void s7_aPageIsFullAtEitherBound() {
        PageBudget budget = new PageBudget(3, 100);
        assertThat(budget.full(2, 99)).as("[S7] under both bounds").isFalse();
        assertThat(budget.full(3, 0)).as("[S7] full at the row budget").isTrue();
        assertThat(budget.full(1, 100)).as("[S7] full at the byte budget").isTrue();
    }

    // D5: the drop answers the adapters build carry their outcome and detail.
    @Test
    void d5_dropResultsCarryTheirOutcome() {
        assertThat(DropResult.lockWaitFailed("lock timeout")).isEqualTo(new DropResult(DropOutcome.LOCK_WAIT_FAILED, "lock timeout"));
        assertThat(DropResult.failed("a view")).isEqualTo(new DropResult(DropOutcome.OTHER_FAILURE, "a view"));
    }

    // The system time source's monotonic clock moves forward.
    @Test
    void monotonicClockMovesForward() throws InterruptedException {
        long before = TimeSource.SYSTEM.monotonicNanos();
        new CountDownLatch(1).await(2, TimeUnit.MILLISECONDS);
        assertThat(TimeSource.SYSTEM.monotonicNanos() - before).isGreaterThan(0);
    }

    // D8: the poller thread is a daemon (it never keeps a JVM alive), counts its passes, and is gone
    // once close returns.
    @Test
    void d8_thePollerThreadIsADaemonAndEndsOnClose() throws Exception {
        CountDownLatch firstPass = new CountDownLatch(1);
        String name = "poller-daemon-check-" + System.nanoTime();
        dev.stillpoint.core.lifecycle.ControlPlanePoller poller = new dev.stillpoint.core.lifecycle.ControlPlanePoller(
                new dev.stillpoint.domain.poller.PollerSchedule(Duration.ofHours(1), Duration.ofSeconds(1)), () -> {
                    firstPass.countDown();
                    return new PollerEvent.PassFinished(Instant.now(), 0, Optional.empty());
                }, TimeSource.SYSTEM, name).start();
        Thread thread;
        try {
            assertThat(firstPass.await(10, TimeUnit.SECONDS)).isTrue();
            thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                    .orElseThrow();
            assertThat(thread.isDaemon()).as("[D8] the poller thread is a daemon").isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (poller.passesRun() < 1 && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(5, TimeUnit.MILLISECONDS);
            }
            assertThat(poller.passesRun()).as("[D8] the startup pass is counted").isEqualTo(1);
        } finally {
            poller.close();
        }
        assertThat(thread.isAlive()).as("[D8] close returns once the poller thread has ended").isFalse();
    }
}

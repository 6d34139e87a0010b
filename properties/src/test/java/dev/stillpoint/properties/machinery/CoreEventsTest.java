package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.core.TableService;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.ControlPlanePoller;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.core.snapshot.ReadAhead;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TableRecord;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What the core tells an embedder's {@link StorageEvents} [X1], over the fakes of the driven ports:
 * the permit ledger's figures and a refused open [D7], each pass's time and outcome [D8], each
 * write's kind and outcome, and the deferred drops with their age. The meters built on these are
 * tested in {@code metrics-micrometer} against real databases; this pins the facts at their source,
 * where the core's own mutation run can see them.
 */
class CoreEventsTest {

    private static final Duration IDLE = Duration.ofHours(1);

    private final Recorded events = new Recorded();

    // [X1, D7] the permit figures are the ledger's own, read live; an open over the bound is told refused.
    @Test
    void x1_permitFiguresAreTheLedgersAndARefusedOpenIsTold() {
        InMemoryReadPort port = new InMemoryReadPort(Descriptions.active("acct", "things"), 3);
        PermitLedger ledger = new PermitLedger(PermitPool.withCapacity(1));
        try (LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, ledger, () -> { }, new PageBudget(2, 1 << 20),
                ReadObserver.NONE, Cleaner.create(), new IdleLimit(Duration.ofSeconds(30)), ReadAhead.NONE, events)) {
            StorageEvents.PermitFigures figures = events.permits.get();
            assertThat(figures).as("[X1] offered once, when the engine is built").isNotNull();
            assertThat(List.of(figures.inUse(), figures.heldBySnapshots(), figures.capacity())).isEqualTo(List.of(0, 0, 1));

            TableSnapshot open = engine.openTableSnapshot("acct", "things");
            assertThat(List.of(figures.inUse(), figures.heldBySnapshots(), figures.capacity()))
                    .as("[X1] in use, held by snapshots, capacity while one stream is open").isEqualTo(List.of(1, 1, 1));
            assertThatThrownBy(() -> engine.openTableSnapshot("acct", "things"))
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED));
            assertThat(events.refused.get()).as("[X1, D7] the refused open told once").isEqualTo(1);
            assertThatThrownBy(() -> engine.openTableSnapshot("acct", "things", StoredKeys.OMITTED, 2))
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED));
            assertThat(events.refused.get()).as("[X1, D7, B2] a refused segmented open told too").isEqualTo(2);

            open.close();
            assertThat(List.of(figures.inUse(), figures.heldBySnapshots(), figures.capacity())).isEqualTo(List.of(0, 0, 1));
            assertThat(events.ends).containsExactly(StorageEvents.LeaseEnd.CLOSED);
        }
    }

    // [X1, D8] every pass is told with the time it took on the poller's clock, and whether it failed:
    // the startup pass succeeds in 250 ms, the woken one throws after 40 ms (the next pass retries).
    @Test
    void x1_everyPassIsToldWithItsTimeAndWhetherItFailed() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-03T10:00:00Z"));
        AtomicInteger runs = new AtomicInteger();
        Semaphore told = new Semaphore(0);
        events.onPass = told::release;
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)), () -> {
            if (runs.incrementAndGet() == 1) {
                clock.advance(Duration.ofMillis(250));
                return new PollerEvent.PassFinished(clock.now(), 0, Optional.empty());
            }
            clock.advance(Duration.ofMillis(40));
            throw StorageException.internal("the catalog went away", null);
        }, clock, "test-poller", events).start()) {
            assertThat(told.tryAcquire(10, TimeUnit.SECONDS)).as("the startup pass told").isTrue();
            poller.wake();
            assertThat(told.tryAcquire(10, TimeUnit.SECONDS)).as("the woken pass told").isTrue();
        }
        assertThat(events.passes).as("[X1, D8] each pass's time on the poller's clock and its outcome").startsWith(
                new Pass(Duration.ofMillis(250), false), new Pass(Duration.ofMillis(40), true));
    }

    // [X1] every write through the table operations is told by kind, and as failed when it threw
    // (a refusal by the rules included); a read is no write.
    @Test
    void x1_everyWriteIsToldByKindAndOutcome() {
        InMemoryTables storage = new InMemoryTables();
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        TableService service = new TableService(storage, new ItemWrites(storage), request -> {
            throw new AssertionError("no table is created here");
        }, new TableDeletion(new FakeCatalog(), dev.stillpoint.ports.out.TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO), events);
        Item item = Item.of(Map.of("pk", new AttributeValue.S("a")));
        RequestKey key = RequestKey.of("pk", new AttributeValue.S("a"));

        long began = System.nanoTime();
        service.putItem("acct", "Orders", item);
        assertThatThrownBy(() -> service.putItem("acct", "Orders", Item.of(Map.of("v", new AttributeValue.S("x")))))
                .isInstanceOf(StorageException.class);
        service.getItem("acct", "Orders", key);
        service.deleteItem("acct", "Orders", key);
        assertThatThrownBy(() -> service.deleteItem("acct", "Missing", key)).isInstanceOf(StorageException.class);
        service.batchWriteItem("acct", Map.of("Orders", List.of(new WriteRequest.Put(item))));

        assertThat(events.writes).as("[X1] kind and outcome of each write, in order").containsExactly(
                "PUT ok", "PUT failed", "DELETE ok", "DELETE failed", "BATCH ok");
        Duration all = Duration.ofNanos(System.nanoTime() - began);
        assertThat(events.writeTimes).as("[X1] a write's time is never negative").allMatch(d -> !d.isNegative());
        assertThat(events.writeTimes).as("[X1] a write's time is at most the time all five took (%s)", all)
                .allMatch(d -> d.compareTo(all) <= 0);
    }

    // [X1, D8] the deferred drops as the last pass found them, read live: how many, and the age of
    // the longest-waiting one since the first pass that deferred it; none once the table is dropped.
    @Test
    void x1_deferredDropsAndTheirAgeAreTheLastPasss() {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-03T10:00:00Z"));
        FakeCatalog catalog = new FakeCatalog();
        catalog.held = t -> true;
        catalog.rows.put("held", new TableRecord(Descriptions.active("acct", "held"),
                new TableState.Deleting(clock.now(), TableState.DropRetry.DEFERRED)));
        TableDeletion deletion = new TableDeletion(catalog, clock, () -> { }, () -> Duration.ZERO);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, clock);
        StorageEvents.DeferredDrops drops = pass.deferredDrops();
        assertThat(drops.pending()).isZero();
        assertThat(drops.oldest()).isEqualTo(Duration.ZERO);

        pass.run();
        assertThat(drops.pending()).as("[X1] one drop deferred").isEqualTo(1);
        clock.advance(Duration.ofSeconds(3));
        pass.run();
        assertThat(drops.pending()).isEqualTo(1);
        assertThat(drops.oldest()).as("[X1] aged since the first pass that deferred it").isEqualTo(Duration.ofSeconds(3));
        clock.advance(Duration.ofSeconds(-10)); // the wall clock stepped back (an NTP correction)
        assertThat(drops.oldest()).as("[X1] an age is never negative, whatever the wall clock did").isEqualTo(Duration.ZERO);
        clock.advance(Duration.ofSeconds(10));

        catalog.held = t -> false;
        clock.advance(Duration.ofSeconds(1));
        pass.run();
        assertThat(catalog.rows).doesNotContainKey("held");
        assertThat(drops.pending()).as("[X1] none once dropped").isZero();
        assertThat(drops.oldest()).isEqualTo(Duration.ZERO);
    }

    // [X1] the control plane offers its pass's deferred drops to the events once, when it is wired.
    @Test
    void x1_theControlPlaneOffersItsDeferredDropsWhenWired() {
        FakeCatalog catalog = new FakeCatalog();
        try (dev.stillpoint.core.ControlPlane controlPlane = new dev.stillpoint.core.ControlPlane(
                dev.stillpoint.ports.out.TimeSource.SYSTEM, new PollerSchedule(IDLE, Duration.ofMillis(100)), "test-control-plane", events)) {
            assertThat(events.drops.get()).as("nothing before the wiring").isNull();
            controlPlane.wire(new dev.stillpoint.core.ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay,
                    new ControlPlaneTest.RowsCatalog(catalog), ControlPlaneTest.NO_ITEMS, new FakeStatistics(() -> { }), List.of()));
            assertThat(events.drops.get()).as("[X1] offered when wired").isNotNull();
            assertThat(events.drops.get().pending()).isZero();
        }
    }

    private record Pass(Duration took, boolean failed) {
    }

    private static final class Recorded implements StorageEvents {
        final AtomicReference<PermitFigures> permits = new AtomicReference<>();
        final AtomicReference<DeferredDrops> drops = new AtomicReference<>();
        final AtomicInteger refused = new AtomicInteger();
        final List<LeaseEnd> ends = new CopyOnWriteArrayList<>();
        final List<Pass> passes = new CopyOnWriteArrayList<>();
        final List<String> writes = new CopyOnWriteArrayList<>();
        final List<Duration> writeTimes = new CopyOnWriteArrayList<>();
        volatile Runnable onPass = () -> { };

        @Override
        public void snapshotPermits(PermitFigures figures) {
            assertThat(permits.getAndSet(figures)).as("offered once").isNull();
        }

        @Override
        public void permitRefused() {
            refused.incrementAndGet();
        }

        @Override
        public void leaseReleased(LeaseEnd end) {
            ends.add(end);
        }

        @Override
        public void deferredDrops(DeferredDrops view) {
            assertThat(drops.getAndSet(view)).as("offered once").isNull();
        }

        @Override
        public void passFinished(Duration took, boolean failed) {
            passes.add(new Pass(took, failed));
            onPass.run();
        }

        @Override
        public void written(WriteKind write, Duration took, boolean failed) {
            writes.add(write + (failed ? " failed" : " ok"));
            writeTimes.add(took);
        }
    }
}

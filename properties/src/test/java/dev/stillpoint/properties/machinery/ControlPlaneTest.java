package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.core.ControlPlane;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The one composition point [D8]: the control plane wires CreateTable, DeleteTable and the pass over
 * a backend's ports with no forward reference, wakes its own poller, and runs the backend's chores on
 * every pass without letting one stop it. The idle sweep is an hour, so a pass that comes soon was
 * caused by the startup or a wake. Latches and deadlines, no sleeps.
 */
class ControlPlaneTest {

    private static final PollerSchedule SCHEDULE = new PollerSchedule(Duration.ofHours(1), Duration.ofMillis(100));

    // D4, D8: a CreateTable through the wired service wakes the control plane's own poller, whose pass
    // activates the table; every pass runs the chores in order (a failing one is logged and the rest
    // still run), then the statistics, then the transitions.
    @Test
    void d8_createTableIsActivatedByTheWiredPollerAndAFailingChoreNeverStopsThePass() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.delay = Duration.ZERO;
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger recounts = new AtomicInteger();
        try (ControlPlane controlPlane = new ControlPlane(TimeSource.SYSTEM, SCHEDULE, "test-control-plane")) {
            TableOperations tables = controlPlane.wire(new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay,
                    new RowsCatalog(catalog), NO_ITEMS, new FakeStatistics(recounts::incrementAndGet), List.of(
                            new PassChore("failing chore", () -> {
                                ran.add("failing");
                                throw StorageException.internal("the sweep's server went away", null);
                            }),
                            new PassChore("second chore", () -> ran.add("second")))));
            controlPlane.start();
            awaitTrue(() -> controlPlane.pollerPasses() >= 1, "startup pass");
            assertThat(recounts.get()).as("statistics recounted on the first pass").isEqualTo(1);

            assertThat(tables.createTable(Descriptions.request("acct", "fresh")).status()).isEqualTo(TableStatus.CREATING);
            awaitTrue(() -> catalog.rows.get("fresh").state() instanceof TableState.Active, "activated by a woken pass");
            assertThat(tables.describeTable("acct", "fresh").status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(ran).as("both chores on every pass, in order").startsWith("failing", "second", "failing", "second");
        }
    }

    // D5, D8: DeleteTable through the wired service uses the backend's delay; a held table goes
    // DELETING with the row kept, and the control plane's poller, woken by the deletion itself, drops
    // it once free (no wake from anywhere else).
    @Test
    void d8_aDeferredDeleteTableWakesTheWiredPoller() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.held = t -> true;
        catalog.rows.put("held", new TableRecord(Descriptions.active("acct", "held"), new TableState.Active()));
        try (ControlPlane controlPlane = new ControlPlane(TimeSource.SYSTEM, SCHEDULE, "test-control-plane")) {
            TableOperations tables = controlPlane.wire(new ControlPlanePorts(catalog, catalog, () -> Duration.ZERO,
                    new RowsCatalog(catalog), NO_ITEMS, new FakeStatistics(() -> { }), List.of()));
            controlPlane.start();
            awaitTrue(() -> controlPlane.pollerPasses() >= 1, "startup pass");
            assertThat(tables.deleteTable("acct", "held").status()).isEqualTo(TableStatus.DELETING);
            assertThat(catalog.rows.get("held").state()).isInstanceOf(TableState.Deleting.class);
            catalog.held = t -> false;
            awaitTrue(() -> !catalog.rows.containsKey("held"), "dropped by the active poller once free");
        }
    }

    // Wiring happens once, before the poller starts; nothing runs before it.
    @Test
    void wiredOnceAndStartedOnlyOnceWired() {
        FakeCatalog catalog = new FakeCatalog();
        ControlPlanePorts ports = new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay,
                new RowsCatalog(catalog), NO_ITEMS, new FakeStatistics(() -> { }), List.of());
        try (ControlPlane controlPlane = new ControlPlane(TimeSource.SYSTEM, SCHEDULE, "test-control-plane")) {
            assertThatThrownBy(controlPlane::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("once wired");
            assertThatThrownBy(controlPlane::restores).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("once wired");
            controlPlane.wake(); // before start: remembered, harmless
            assertThat(controlPlane.pollerPasses()).isZero();
            assertThat(ports.bulkLoads()).as("[B1] no bulk path unless given").isEmpty();
            BulkLoads bulk = table -> {
                throw new AssertionError("not asked");
            };
            assertThat(ports.withBulkLoads(bulk).bulkLoads()).as("[B1] the bulk path given").containsSame(bulk);
            assertThat(ports.withBulkLoads(bulk).items()).as("the other ports kept").isSameAs(ports.items());
            controlPlane.wire(ports);
            assertThat(controlPlane.restores()).as("[E4] restores once wired").isNotNull();
            assertThat(controlPlane.pollerState()).as("[D8] the poller's state, for diagnostics").isNotNull();
            assertThatThrownBy(() -> controlPlane.wire(ports)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already wired");
        }
    }

    // D8: closing the control plane ends its poller's thread.
    @Test
    void d8_closeEndsThePollerThread() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        String name = "test-control-plane-close-" + System.nanoTime();
        ControlPlane controlPlane = new ControlPlane(TimeSource.SYSTEM, SCHEDULE, name);
        controlPlane.wire(new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay,
                new RowsCatalog(catalog), NO_ITEMS, new FakeStatistics(() -> { }), List.of()));
        controlPlane.start();
        Thread thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name))
                .findFirst().orElseThrow();
        controlPlane.close();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.isAlive()).as("[D8] the poller thread ended with the control plane").isFalse();
    }

    /** Descriptions straight from the fake catalog's rows; UpdateTable is not needed here. */
    record RowsCatalog(FakeCatalog rows) implements TableCatalog {
        @Override
        public Optional<TableDescription> describe(String accountId, String tableName) {
            return Optional.ofNullable(rows.rows.get(tableName)).map(TableRecord::description);
        }

        @Override
        public List<String> tableNames(String accountId) {
            return List.copyOf(rows.rows.keySet());
        }

        @Override
        public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
            throw new UnsupportedOperationException("not needed by these tests");
        }
    }

    // The one composition root: StorageCore assembles the table service, the permit ledger and the
    // snapshot engine once, over the adapter's ports and the shared settings; a second assembly and a
    // use before it are refused; the permits come from the pool it was given [D7]; a snapshot opened
    // through it holds one permit and gives it back when closed; close stops the poller.
    @Test
    void d8_theStorageCoreAssemblesOnceFromThePortsAndTheSettings() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.delay = Duration.ZERO;
        CoreSettings settings = new CoreSettings(PageBudget.DEFAULT, SCHEDULE, ReadObserver.NONE, TimeSource.SYSTEM,
                IdleLimit.DEFAULT, RestoreIdleLimit.DEFAULT, StorageEvents.NONE);
        ControlPlanePorts ports = new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay,
                new RowsCatalog(catalog), NO_ITEMS, new FakeStatistics(() -> { }), List.of());
        StorageCore core = new StorageCore(settings, "test-storage-core");
        assertThatThrownBy(core::tables).as("no service before the assembly").isInstanceOf(IllegalStateException.class);
        core.assemble(ports, new InMemoryReadPort(Descriptions.active("acct", "snap"), 3), PermitPool.withCapacity(2));
        assertThatThrownBy(() -> core.assemble(ports, new InMemoryReadPort(Descriptions.active("acct", "snap"), 3),
                PermitPool.withCapacity(2))).as("assembled once").isInstanceOf(IllegalStateException.class);
        assertThat(core.permits().capacity()).as("the permits of the pool given").isEqualTo(2);
        core.start();
        awaitTrue(() -> core.pollerPasses() >= 1, "startup pass");
        assertThat(core.tables().createTable(Descriptions.request("acct", "fresh")).status()).isEqualTo(TableStatus.CREATING);
        awaitTrue(() -> catalog.rows.get("fresh").state() instanceof TableState.Active, "activated by the core's poller");
        java.util.Set<Thread> timersBefore = IdleTimers.threads();
        java.util.Set<Thread> timers;
        try (var snapshot = core.snapshots().openTableSnapshot("acct", "snap")) {
            assertThat(core.permits().inUse()).as("an open snapshot holds a permit").isEqualTo(1);
            timers = IdleTimers.threads();
            timers.removeAll(timersBefore);
            assertThat(timers).as("the core's snapshot engine watches the open snapshot").isNotEmpty();
        }
        assertThat(core.permits().inUse()).as("its permit back when closed").isZero();
        assertThat(core.restores()).as("restores wired by the assembly").isNotNull();
        core.wakeSignal().wake();
        core.close();
        assertThat(core.pollerState().kind()).as("[D8] close stops the poller").isEqualTo(PollerState.Kind.STOPPED);
        // The engine's idle timer would otherwise live on until its look at the snapshot, a limit away.
        awaitTrue(() -> timers.stream().noneMatch(Thread::isAlive), "[L1] close ends the snapshot engine's idle timer");
        long passes = core.pollerPasses();
        core.tables().createTable(Descriptions.request("acct", "after-close"));
        assertThat(core.pollerPasses()).as("no pass after close").isEqualTo(passes);
        new StorageCore(settings, "test-storage-core-unassembled").close(); // nothing assembled: nothing to end, no failure
    }

    static final ItemStorage NO_ITEMS = new ItemStorage() {
        @Override
        public <T> T inUnit(String doing, UnitWork<T> work) {
            throw new UnsupportedOperationException("not needed by these tests");
        }

        @Override
        public Optional<StorageTable> table(String accountId, String tableName) {
            throw new UnsupportedOperationException("not needed by these tests");
        }

        @Override
        public Optional<Item> read(StorageTable table, Key key) {
            throw new UnsupportedOperationException("not needed by these tests");
        }
    };

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Object tick = new Object();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("deadline for: " + what).isLessThan(deadline);
            synchronized (tick) {
                tick.wait(10);
            }
        }
    }
}

package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.core.InlineCorePorts;
import dev.stillpoint.core.InlineStorageCore;
import dev.stillpoint.core.InlineStorageFacade;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The core assembled for a backend without a control plane [C2] ({@link InlineStorageCore}, Cassandra's),
 * over fakes: CreateTable answers what the backend's creator answers, the poller's passes recount the
 * statistics and report each pass, restores are wired, the bulk path is carried, and close ends the poller's
 * thread. And the change log trim chore of the full core [I4] reads the core's clock and retention.
 */
class InlineStorageCoreTest {

    private static final PollerSchedule SCHEDULE = new PollerSchedule(Duration.ofHours(1), Duration.ofMillis(100));

    private static CoreSettings settings(TimeSource time, StorageEvents events) {
        return new CoreSettings(PageBudget.DEFAULT, SCHEDULE, ReadObserver.NONE, time, IdleLimit.DEFAULT,
                RestoreIdleLimit.DEFAULT, events);
    }

    @Test
    void c2_theInlineCoreCreatesThroughTheBackendRecountsOnItsPassesAndStopsItsPollerOnClose() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        AtomicInteger recounts = new AtomicInteger();
        List<Boolean> passes = Collections.synchronizedList(new ArrayList<>());
        StorageEvents events = new StorageEvents() {
            @Override
            public void passFinished(Duration took, boolean failed) {
                passes.add(failed);
            }
        };
        InlineCorePorts ports = new InlineCorePorts(new ControlPlaneTest.RowsCatalog(catalog),
                request -> request.describe("id-" + request.tableName(), "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE),
                ControlPlaneTest.NO_ITEMS, catalog, catalog, new FakeStatistics(recounts::incrementAndGet));
        assertThat(ports.bulkLoads()).as("[B1] no bulk path unless given").isEmpty();
        BulkLoads bulk = table -> {
            throw new AssertionError("not asked");
        };
        assertThat(ports.withBulkLoads(bulk).bulkLoads()).as("[B1] the bulk path carried").containsSame(bulk);

        String thread = "test-inline-core-" + System.nanoTime();
        InlineStorageCore core = new InlineStorageCore(settings(TimeSource.SYSTEM, events), thread);
        assertThatThrownBy(core::tables).as("not assembled yet").isInstanceOf(IllegalStateException.class);
        core.assemble(ports);
        assertThatThrownBy(() -> core.assemble(ports)).as("assembled once").isInstanceOf(IllegalStateException.class);
        assertThat(core.tables().createTable(Descriptions.request("acct", "fresh")).status())
                .as("[C2] ACTIVE as the backend's creator answers").isEqualTo(TableStatus.ACTIVE);
        assertThat(core.restores()).as("[E4] restores wired").isNotNull();
        core.start();
        awaitTrue(() -> recounts.get() >= 1 && !passes.isEmpty(), "the first pass recounts and is reported");
        assertThat(passes.get(0)).as("a pass that ran is not a failed one").isFalse();
        assertThat(threadAlive(thread)).as("the poller runs on its named thread").isTrue();
        core.close();
        awaitTrue(() -> !threadAlive(thread), "close ends the poller's thread");
    }

    @Test
    void i4_theTrimChoreTrimsWithTheCoresClockAndRetention() {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-04T10:00:00Z"));
        CoreSettings settings = settings(clock, StorageEvents.NONE).withChangeLogRetention(Duration.ofMinutes(7));
        assertThat(settings.changeLogRetention()).as("[I4] the retention set").isEqualTo(Duration.ofMinutes(7));
        List<String> trims = new ArrayList<>();
        StorageCore core = new StorageCore(settings, "test-trim-core");
        try {
            core.changeLogTrim((now, retention) -> trims.add(now + " " + retention)).work().run();
        } finally {
            core.close();
        }
        assertThat(trims).as("[I4] one trim at the core's instant with its retention")
                .containsExactly("2026-12-04T10:00:00Z PT7M");
    }

    /** A facade over an inline core, as Cassandra's is: it adds nothing to what the core's facade hands out. */
    private static final class InlineFacade extends InlineStorageFacade {
        InlineFacade(StorageCapabilities capabilities, InlineStorageCore core, Runnable closeConnections) {
            super(capabilities, core, closeConnections);
        }
    }

    @Test
    void c1_theInlineFacadeRefusesSnapshotsAsItsCapabilitiesSayAndClosesTheCoreBeforeTheConnections() {
        String thread = "test-inline-facade-" + System.nanoTime();
        InlineStorageCore core = new InlineStorageCore(settings(TimeSource.SYSTEM, StorageEvents.NONE), thread);
        List<String> closed = Collections.synchronizedList(new ArrayList<>());
        StorageCapabilities none = StorageCapabilities.withoutSnapshots("Dbx", "no read fixes an instant");
        InlineFacade facade = new InlineFacade(none, core, () -> closed.add("connections, poller running: "
                + threadAlive(thread)));
        assertThat(facade.capabilities()).isSameAs(none);
        assertThatThrownBy(() -> facade.snapshots().openTableSnapshot("acct", "no-such-table", StoredKeys.OMITTED))
                .as("[C1] refused before the table is resolved, naming the backend and why")
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                    assertThat(e.getMessage()).contains("Dbx").contains("no read fixes an instant");
                });
        FakeCatalog catalog = new FakeCatalog();
        core.assemble(new InlineCorePorts(new ControlPlaneTest.RowsCatalog(catalog),
                request -> request.describe("id-" + request.tableName(), "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE),
                ControlPlaneTest.NO_ITEMS, catalog, catalog, new FakeStatistics(() -> { })));
        assertThat(facade.tables()).isSameAs(core.tables());
        assertThat(facade.restores()).isSameAs(core.restores());
        core.start();
        facade.close();
        assertThat(closed).as("the poller stops before the connections close").containsExactly(
                "connections, poller running: false");
        assertThatThrownBy(() -> new InlineFacade(StorageCapabilities.full("Dby"),
                new InlineStorageCore(settings(TimeSource.SYSTEM, StorageEvents.NONE), "unused"), () -> { }))
                .as("no inline core serves snapshots").isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

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

package dev.stillpoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.StorageEvents;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every X1 meter moves when the storage does what it counts, on a real backend [X1]: an open stream,
 * a refused open, a drained, closed, abandoned and expired stream, a failed control-plane pass,
 * writes, an export and a restore. Each backend's test supplies the opening and the way to break
 * its catalog for one pass; PostgreSQL's adds the deferred drop (SQLite never defers one: under WAL
 * a reader keeps its snapshot of a dropped table, so nothing holds a drop up).
 */
abstract class MetersContract {

    static final String ACCOUNT = "acct";
    static final String TABLE = "orders";

    @TempDir
    Path dir;

    SimpleMeterRegistry registry;
    StillpointMeters meters;
    Storage storage;

    /** Opens a new, empty storage telling {@code events}; streams idle for {@code idleLimit} are reclaimed. */
    abstract Storage open(StorageEvents events, Duration idleLimit) throws Exception;

    /** Makes the catalog unreadable, so the control plane's next pass fails. */
    abstract void breakCatalog() throws Exception;

    /** Undoes {@link #breakCatalog()}. */
    abstract void mendCatalog() throws Exception;

    @BeforeEach
    void openStorage() throws Exception {
        registry = new SimpleMeterRegistry();
        meters = new StillpointMeters(registry);
        storage = open(meters, Duration.ofSeconds(60));
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    void reopenWithIdleLimit(Duration idleLimit) throws Exception {
        storage.close();
        registry = new SimpleMeterRegistry();
        meters = new StillpointMeters(registry);
        storage = open(meters, idleLimit);
    }

    void createOrdersWithItems(int n) {
        createTable(TABLE);
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, TABLE, item("ada", i));
        }
    }

    void createTable(String name) {
        storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, name)
                .partitionKey("customer", ScalarType.S)
                .sortKey("placed", ScalarType.N)
                .globalIndex("by_status", "status", ScalarType.S, Projection.all())
                .build());
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, Duration.ofSeconds(10));
    }

    static Item item(String customer, int placed) {
        return Item.of(Map.of("customer", AttributeValue.s(customer), "placed", AttributeValue.n(Integer.toString(placed)),
                "status", AttributeValue.s("shipped-é")));
    }

    double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    long timerCount(String name, String... tags) {
        return registry.get(name).tags(tags).timer().count();
    }

    /** Waits, without sleeping blind, until {@code value} reaches {@code atLeast}; fails naming the meter at the deadline. */
    static void await(String what, DoubleSupplier value, double atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Object tick = new Object();
        while (value.getAsDouble() < atLeast) {
            assertThat(System.nanoTime()).as(what + " reaches " + atLeast + " (is " + value.getAsDouble() + ")")
                    .isLessThan(deadline);
            synchronized (tick) {
                tick.wait(20);
            }
        }
    }

    @Test
    void permitsInUseAndLeasesOpenFollowAnOpenStreamAndAClosedOneIsCountedClosed() {
        createOrdersWithItems(3);
        assertThat(gauge(StillpointMeters.PERMITS_CAPACITY)).as("capacity").isGreaterThanOrEqualTo(1);
        assertThat(gauge(StillpointMeters.PERMITS_IN_USE)).as("permits in use before the open").isZero();
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
            assertThat(gauge(StillpointMeters.PERMITS_IN_USE)).as("permits in use while a stream is open").isEqualTo(1);
            assertThat(gauge(StillpointMeters.LEASES_OPEN)).as("leases open while a stream is open").isEqualTo(1);
            assertThat(snapshot.description().tableName()).isEqualTo(TABLE);
        }
        assertThat(gauge(StillpointMeters.PERMITS_IN_USE)).as("permits in use after close").isZero();
        assertThat(gauge(StillpointMeters.LEASES_OPEN)).as("leases open after close").isZero();
        assertThat(counter(StillpointMeters.LEASES_RELEASED, "end", "closed")).as("leases released closed").isEqualTo(1);
        assertThat(counter(StillpointMeters.LEASES_RELEASED, "end", "drained")).as("leases released drained").isZero();
    }

    @Test
    void anOpenBeyondThePermitsIsCountedRefused() {
        createOrdersWithItems(1);
        int capacity = (int) gauge(StillpointMeters.PERMITS_CAPACITY);
        List<TableSnapshot> held = new ArrayList<>();
        try {
            for (int i = 0; i < capacity; i++) {
                held.add(storage.snapshots().openTableSnapshot(ACCOUNT, TABLE));
            }
            assertThat(counter(StillpointMeters.PERMITS_REFUSED)).as("refused before the bound").isZero();
            assertThatThrownBy(() -> storage.snapshots().openTableSnapshot(ACCOUNT, TABLE))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED));
            assertThat(counter(StillpointMeters.PERMITS_REFUSED)).as("permits refused").isEqualTo(1);
            assertThat(gauge(StillpointMeters.PERMITS_IN_USE)).as("permits in use at the bound").isEqualTo(capacity);
        } finally {
            held.forEach(TableSnapshot::close);
        }
    }

    @Test
    void aDrainedStreamCountsItsItemsAndTheirBytes() {
        createOrdersWithItems(3);
        long bytes = 0;
        int items = 0;
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
            ItemStream stream = snapshot.items();
            while (stream.hasNext()) {
                StoredItem item = stream.next();
                bytes += item.json().getBytes(StandardCharsets.UTF_8).length;
                items++;
            }
        }
        assertThat(items).isEqualTo(3);
        assertThat(counter(StillpointMeters.STREAMED_ITEMS)).as("items streamed").isEqualTo(3);
        assertThat(counter(StillpointMeters.STREAMED_BYTES)).as("bytes streamed").isEqualTo(bytes);
        assertThat(counter(StillpointMeters.LEASES_RELEASED, "end", "drained")).as("leases released drained").isEqualTo(1);
    }

    @Test
    void aStreamDroppedWithoutCloseIsCountedAbandoned() throws InterruptedException {
        createOrdersWithItems(1);
        openAndDrop();
        await("leases released abandoned", () -> {
            System.gc();
            return counter(StillpointMeters.LEASES_RELEASED, "end", "abandoned");
        }, 1);
        assertThat(gauge(StillpointMeters.LEASES_OPEN)).as("leases open after the Cleaner ran").isZero();
    }

    private void openAndDrop() {
        TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE);
        assertThat(gauge(StillpointMeters.LEASES_OPEN)).as("leases open before the drop").isEqualTo(1);
        // Reachable until the gauge is read: a snapshot never held may be collected, and its lease reclaimed as
        // abandoned, before the read (seen in CI run 21: 0.0 open); unreachable once this method returns.
        java.lang.ref.Reference.reachabilityFence(snapshot);
    }

    @Test
    void aStreamIdleForItsLimitIsCountedExpired() throws Exception {
        reopenWithIdleLimit(Duration.ofMillis(100));
        createOrdersWithItems(1);
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
            await("leases released expired", () -> counter(StillpointMeters.LEASES_RELEASED, "end", "expired"), 1);
            assertThat(gauge(StillpointMeters.PERMITS_IN_USE)).as("permits in use after the expiry").isZero();
            assertThatThrownBy(() -> snapshot.items().hasNext()).isInstanceOfSatisfying(StorageException.class,
                    e -> assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED));
        }
    }

    @Test
    void aPassThatCannotReadTheCatalogIsCountedFailedAndTheNextGoodOneOk() throws Exception {
        await("passes ok", () -> timerCount(StillpointMeters.PASSES, "outcome", "ok"), 1);
        assertThat(timerCount(StillpointMeters.PASSES, "outcome", "failed")).as("failed passes before").isZero();
        breakCatalog();
        try {
            await("passes failed", () -> timerCount(StillpointMeters.PASSES, "outcome", "failed"), 1);
        } finally {
            mendCatalog();
        }
        long ok = timerCount(StillpointMeters.PASSES, "outcome", "ok");
        await("passes ok after the catalog is back", () -> timerCount(StillpointMeters.PASSES, "outcome", "ok"), ok + 1);
    }

    @Test
    void everyWriteIsTimedByOperationAndOutcome() {
        createOrdersWithItems(0);
        storage.tables().putItem(ACCOUNT, TABLE, item("ada", 1));
        assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, "missing-table", item("ada", 1)))
                .isInstanceOf(StorageException.class);
        storage.tables().deleteItem(ACCOUNT, TABLE, RequestKey.of("customer", AttributeValue.s("ada"),
                "placed", AttributeValue.n("1")));
        storage.tables().batchWriteItem(ACCOUNT, Map.of(TABLE, List.of(new WriteRequest.Put(item("bob", 2)))));
        assertThat(timerCount(StillpointMeters.WRITES, "operation", "put", "outcome", "ok")).as("puts ok").isEqualTo(1);
        assertThat(timerCount(StillpointMeters.WRITES, "operation", "put", "outcome", "failed")).as("puts failed")
                .isEqualTo(1);
        assertThat(timerCount(StillpointMeters.WRITES, "operation", "delete", "outcome", "ok")).as("deletes ok")
                .isEqualTo(1);
        assertThat(timerCount(StillpointMeters.WRITES, "operation", "batch", "outcome", "ok")).as("batches ok")
                .isEqualTo(1);
        assertThat(registry.get(StillpointMeters.WRITES).tags("operation", "put", "outcome", "ok").timer()
                .totalTime(TimeUnit.NANOSECONDS)).as("put time").isPositive();
    }

    @Test
    void anExportAndARestoreCountTheirItems() {
        createOrdersWithItems(4);
        ExportResult result = TableExport.to(dir.resolve("made/here")).events(meters).run(storage, ACCOUNT, TABLE);
        assertThat(result.items()).isEqualTo(4);
        assertThat(counter(StillpointMeters.EXPORTED_ITEMS)).as("items exported").isEqualTo(4);
        assertThat(counter(StillpointMeters.EXPORTED_BYTES)).as("bytes exported").isEqualTo(result.bytes());
        TableRestore.from(dir.resolve("made/here")).run(storage, ACCOUNT, "orders-copy");
        assertThat(counter(StillpointMeters.RESTORED_ITEMS)).as("items restored").isEqualTo(4);
    }

    /** Every meter the class comment lists exists from the start, so a dashboard sees it before any event. */
    @Test
    void everyDocumentedMeterIsRegisteredAtOpen() {
        List<String> names = registry.getMeters().stream().map(m -> m.getId().getName()).distinct().sorted().toList();
        assertThat(names).containsExactlyInAnyOrder(StillpointMeters.PERMITS_IN_USE, StillpointMeters.PERMITS_CAPACITY,
                StillpointMeters.PERMITS_REFUSED, StillpointMeters.LEASES_OPEN, StillpointMeters.LEASES_RELEASED,
                StillpointMeters.STREAMED_ITEMS, StillpointMeters.STREAMED_BYTES, StillpointMeters.DROPS_DEFERRED,
                StillpointMeters.DROPS_DEFERRED_OLDEST, StillpointMeters.PASSES, StillpointMeters.WRITES,
                StillpointMeters.RESTORED_ITEMS, StillpointMeters.EXPORTED_ITEMS, StillpointMeters.EXPORTED_BYTES);
        assertThat(registry.get(StillpointMeters.DROPS_DEFERRED_OLDEST).meter().getId().getType())
                .isEqualTo(Meter.Type.GAUGE);
    }
}

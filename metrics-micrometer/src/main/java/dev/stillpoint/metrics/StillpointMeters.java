package dev.stillpoint.metrics;

import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.StorageEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Stillpoint's storage events [X1] as Micrometer meters. An embedder adds it in one line, to the
 * configuration of the storage it opens:
 *
 * <pre>{@code
 * SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withEvents(new StillpointMeters(registry)));
 * }</pre>
 *
 * <p>One instance per opened storage: the gauges read that storage's permit ledger and control plane.
 * Two storages in one registry each take their own instance with a tag that tells them apart
 * ({@link #StillpointMeters(MeterRegistry, Tags)}). Every meter exists from construction (counters at
 * zero), so a dashboard sees it before the first event. No meter is tagged with a table or an account:
 * their number is unbounded across a server's accounts; per-table figures are DescribeTable's. Every
 * tag below has a closed set of values.
 *
 * <table>
 *   <caption>The meters</caption>
 *   <tr><th>name</th><th>type</th><th>unit</th><th>tags</th><th>what it counts</th></tr>
 *   <tr><td>{@value #PERMITS_IN_USE}</td><td>gauge</td><td>permits</td><td></td>
 *       <td>snapshot permits held now, by snapshots and backups [D7]</td></tr>
 *   <tr><td>{@value #PERMITS_CAPACITY}</td><td>gauge</td><td>permits</td><td></td>
 *       <td>the most permits out at once</td></tr>
 *   <tr><td>{@value #PERMITS_REFUSED}</td><td>counter</td><td>opens</td><td></td>
 *       <td>snapshot opens refused LimitExceeded because every permit was held</td></tr>
 *   <tr><td>{@value #LEASES_OPEN}</td><td>gauge</td><td>leases</td><td></td>
 *       <td>snapshot streams holding a permit now</td></tr>
 *   <tr><td>{@value #LEASES_RELEASED}</td><td>counter</td><td>leases</td>
 *       <td>{@code end}: drained, closed, abandoned, expired, failed, open_failed</td>
 *       <td>leases released, by how they ended; {@code end=expired} are the streams the idle limit
 *       reclaimed [L1], {@code end=abandoned} those the Cleaner reclaimed [S5]</td></tr>
 *   <tr><td>{@value #STREAMED_ITEMS}</td><td>counter</td><td>items</td><td></td>
 *       <td>items snapshot streams fetched</td></tr>
 *   <tr><td>{@value #STREAMED_BYTES}</td><td>counter</td><td>bytes</td><td></td>
 *       <td>their stored DynamoDB JSON, in UTF-8 bytes</td></tr>
 *   <tr><td>{@value #DROPS_DEFERRED}</td><td>gauge</td><td>tables</td><td></td>
 *       <td>tables whose drop the last control-plane pass deferred behind a holder [D8]</td></tr>
 *   <tr><td>{@value #DROPS_DEFERRED_OLDEST}</td><td>time gauge</td><td>seconds</td><td></td>
 *       <td>how long the longest-waiting of them has been deferred; 0 when none</td></tr>
 *   <tr><td>{@value #PASSES}</td><td>timer</td><td>seconds</td><td>{@code outcome}: ok, failed</td>
 *       <td>control-plane passes and how long they ran; {@code outcome=failed} when the pass itself ended
 *       with an error (one table's failed drop is logged and retried, the pass still ok)</td></tr>
 *   <tr><td>{@value #WRITES}</td><td>timer</td><td>seconds</td>
 *       <td>{@code operation}: put, delete, batch; {@code outcome}: ok, failed</td>
 *       <td>PutItem, DeleteItem and BatchWriteItem through the table operations, the request's rules included</td></tr>
 *   <tr><td>{@value #RESTORED_ITEMS}</td><td>counter</td><td>items</td><td></td>
 *       <td>items restores wrote into their new tables [E4]</td></tr>
 *   <tr><td>{@value #EXPORTED_ITEMS}</td><td>counter</td><td>items</td><td></td>
 *       <td>items of completed exports (the export told of this instance)</td></tr>
 *   <tr><td>{@value #EXPORTED_BYTES}</td><td>counter</td><td>bytes</td><td></td>
 *       <td>their data files' bytes as stored (gzipped for DynamoDB's layout)</td></tr>
 * </table>
 */
public final class StillpointMeters implements StorageEvents {

    /** Gauge: snapshot permits held now. */
    public static final String PERMITS_IN_USE = "stillpoint.snapshot.permits.in_use";
    /** Gauge: the permit ledger's capacity. */
    public static final String PERMITS_CAPACITY = "stillpoint.snapshot.permits.capacity";
    /** Counter: opens refused for want of a permit. */
    public static final String PERMITS_REFUSED = "stillpoint.snapshot.permits.refused";
    /** Gauge: snapshot leases open now. */
    public static final String LEASES_OPEN = "stillpoint.snapshot.leases.open";
    /** Counter, tag {@code end}: leases released. */
    public static final String LEASES_RELEASED = "stillpoint.snapshot.leases.released";
    /** Counter: items streamed. */
    public static final String STREAMED_ITEMS = "stillpoint.snapshot.streamed.items";
    /** Counter: bytes streamed. */
    public static final String STREAMED_BYTES = "stillpoint.snapshot.streamed.bytes";
    /** Gauge: deferred drops pending. */
    public static final String DROPS_DEFERRED = "stillpoint.controlplane.drops.deferred";
    /** Time gauge: the oldest deferred drop's age. */
    public static final String DROPS_DEFERRED_OLDEST = "stillpoint.controlplane.drops.deferred.oldest";
    /** Timer, tag {@code outcome}: control-plane passes. */
    public static final String PASSES = "stillpoint.controlplane.passes";
    /** Timer, tags {@code operation} and {@code outcome}: writes. */
    public static final String WRITES = "stillpoint.writes";
    /** Counter: items restored. */
    public static final String RESTORED_ITEMS = "stillpoint.restore.items";
    /** Counter: items exported. */
    public static final String EXPORTED_ITEMS = "stillpoint.export.items";
    /** Counter: bytes exported. */
    public static final String EXPORTED_BYTES = "stillpoint.export.bytes";

    private final MeterRegistry registry;
    private final Tags common;
    private final Counter refused;
    private final Map<LeaseEnd, Counter> released = new EnumMap<>(LeaseEnd.class);
    private final Counter streamedItems;
    private final Counter streamedBytes;
    private final Timer passesOk;
    private final Timer passesFailed;
    private final Map<WriteKind, Timer> writesOk = new EnumMap<>(WriteKind.class);
    private final Map<WriteKind, Timer> writesFailed = new EnumMap<>(WriteKind.class);
    private final Counter restoredItems;
    private final Counter exportedItems;
    private final Counter exportedBytes;

    /**
     * The meters of one storage in {@code registry}, without extra tags.
     *
     * @param registry where the meters are registered
     */
    public StillpointMeters(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * The meters of one storage in {@code registry}, each carrying {@code common} (e.g. {@code storage=orders}
     * when one registry watches two storages).
     *
     * @param registry where the meters are registered
     * @param common   tags every meter carries
     */
    public StillpointMeters(MeterRegistry registry, Tags common) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.common = Objects.requireNonNull(common, "common");
        refused = counter(PERMITS_REFUSED, "opens", "snapshot opens refused because every permit was held", common);
        for (LeaseEnd end : LeaseEnd.values()) {
            released.put(end, counter(LEASES_RELEASED, "leases", "snapshot leases released, by how they ended",
                    common.and("end", tagValue(end))));
        }
        streamedItems = counter(STREAMED_ITEMS, "items", "items snapshot streams fetched", common);
        streamedBytes = counter(STREAMED_BYTES, "bytes", "UTF-8 bytes of the stored JSON of streamed items", common);
        passesOk = timer(PASSES, "control-plane passes", common.and("outcome", "ok"));
        passesFailed = timer(PASSES, "control-plane passes", common.and("outcome", "failed"));
        for (WriteKind kind : WriteKind.values()) {
            Tags operation = common.and("operation", tagValue(kind));
            writesOk.put(kind, timer(WRITES, "writes through the table operations", operation.and("outcome", "ok")));
            writesFailed.put(kind, timer(WRITES, "writes through the table operations", operation.and("outcome", "failed")));
        }
        restoredItems = counter(RESTORED_ITEMS, "items", "items restores wrote into their new tables", common);
        exportedItems = counter(EXPORTED_ITEMS, "items", "items of completed exports", common);
        exportedBytes = counter(EXPORTED_BYTES, "bytes", "data file bytes of completed exports, as stored", common);
    }

    @Override
    public void snapshotPermits(PermitFigures permits) {
        // Strong references: the views are reachable only through these gauges, and Micrometer's
        // default weak reference would let them be collected and the gauges read NaN.
        Gauge.builder(PERMITS_IN_USE, permits, PermitFigures::inUse).strongReference(true).baseUnit("permits")
                .description("snapshot permits held now, by snapshots and backups").tags(common).register(registry);
        Gauge.builder(PERMITS_CAPACITY, permits, PermitFigures::capacity).strongReference(true).baseUnit("permits")
                .description("the most snapshot permits out at once").tags(common).register(registry);
        Gauge.builder(LEASES_OPEN, permits, PermitFigures::heldBySnapshots).strongReference(true).baseUnit("leases")
                .description("snapshot streams holding a permit now").tags(common).register(registry);
    }

    @Override
    public void permitRefused() {
        refused.increment();
    }

    @Override
    public void leaseReleased(LeaseEnd end) {
        released.get(end).increment();
    }

    @Override
    public void pageStreamed(Page page) {
        long bytes = 0;
        for (StoredItem item : page.items()) {
            bytes += item.storedBytes().map(b -> (long) b.length).orElseGet(() -> utf8Length(item.json()));
        }
        streamedItems.increment(page.items().size());
        streamedBytes.increment(bytes);
    }

    @Override
    public void deferredDrops(DeferredDrops drops) {
        Gauge.builder(DROPS_DEFERRED, drops, DeferredDrops::pending).strongReference(true).baseUnit("tables")
                .description("tables whose drop the last control-plane pass deferred").tags(common).register(registry);
        TimeGauge.builder(DROPS_DEFERRED_OLDEST, drops, TimeUnit.NANOSECONDS, d -> d.oldest().toNanos())
                .strongReference(true).description("how long the longest-waiting deferred drop has been deferred")
                .tags(common).register(registry);
    }

    @Override
    public void passFinished(Duration took, boolean failed) {
        (failed ? passesFailed : passesOk).record(took);
    }

    @Override
    public void written(WriteKind write, Duration took, boolean failed) {
        (failed ? writesFailed : writesOk).get(write).record(took);
    }

    @Override
    public void restored(int items) {
        restoredItems.increment(items);
    }

    @Override
    public void exported(long items, long bytes) {
        exportedItems.increment(items);
        exportedBytes.increment(bytes);
    }

    private Counter counter(String name, String unit, String description, Tags tags) {
        return Counter.builder(name).baseUnit(unit).description(description).tags(tags).register(registry);
    }

    private Timer timer(String name, String description, Tags tags) {
        return Timer.builder(name).description(description).tags(tags).register(registry);
    }

    private static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** UTF-8 length of a string without encoding it: the backends that hold text as a String pay no copy. */
    static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}

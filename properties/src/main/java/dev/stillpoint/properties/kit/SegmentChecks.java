package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.KitSupport.LARGE_BYTES;
import static dev.stillpoint.properties.kit.KitSupport.STEP_DEADLINE;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.opentest4j.TestAbortedException;

/**
 * B2, a segmented snapshot, on a backend that claims it: K1's table and writer, the snapshot opened
 * in {@value #SEGMENTS} segments; the union is exactly the instant's items (the prefix oracle of K1,
 * per segment), the segments are disjoint and each in key order, and with nothing writing, the
 * segments in order are the single stream item for item.
 */
final class SegmentChecks {

    static final int SEGMENTS = 3;

    private SegmentChecks() {
    }

    /** Skips the check, with the backend's own reason, when it refuses segmented snapshots. */
    private static SegmentedSnapshot openOrSkip(KitEngine engine, ConformanceFixture fixture, String table, int segments) {
        try {
            return engine.snapshots().openTableSnapshot(ACCOUNT, table, StoredKeys.OMITTED, segments);
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.UNSUPPORTED) {
                throw new TestAbortedException("[B2] " + fixture.backendName() + " declares segmented snapshots"
                        + " unsupported, so this check does not apply: " + e.getMessage());
            }
            throw e;
        }
    }

    static void oneInstant(ConformanceFixture fixture, OneInstantChecks.Layout layout) {
        String rule = "[B2] " + layout + ": ";
        KitHooks hooks = new KitHooks();
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(OneInstantChecks.PAGE_ROWS, LARGE_BYTES),
                hooks, Duration.ZERO));
             KitSupport.Threads threads = new KitSupport.Threads("B2")) {
            TableOperations tables = engine.tables();
            String table = createAndFill(tables, layout);
            Map<Key, Item> atOpen = new LinkedHashMap<>();
            for (int i = 0; i < OneInstantChecks.TABLE_ITEMS; i++) {
                atOpen.put(layout.key(i), layout.item(i, 1));
            }
            SoftAssertions soft = new SoftAssertions();
            try (SegmentedSnapshot snapshot = openOrSkip(engine, fixture, table, SEGMENTS)) {
                soft.assertThat(snapshot.segments()).as(rule + "one stream per segment asked for").hasSize(SEGMENTS);
                // Only the first segment reads before the writer: the others must still read the open's instant.
                List<List<StoredItem>> read = new ArrayList<>();
                read.add(new ArrayList<>(Drain.take(snapshot.segments().get(0), 10, "B2 first segment, 10 items")));
                KitSupport.await(threads.submit(() -> {
                    for (int i = 0; i < OneInstantChecks.TABLE_ITEMS; i++) {
                        if (i % 7 == 0) {
                            tables.deleteItem(ACCOUNT, table, KitSupport.requestKey(layout.key(i), layout.schema()));
                        } else {
                            tables.putItem(ACCOUNT, table, layout.item(i, 2));
                        }
                    }
                    for (int i = OneInstantChecks.TABLE_ITEMS; i < OneInstantChecks.TABLE_ITEMS + 100; i++) {
                        tables.putItem(ACCOUNT, table, layout.item(i, 1));
                    }
                    return null;
                }), STEP_DEADLINE, "B2 writer: delete 100, overwrite 600, insert 100");
                read.get(0).addAll(Drain.all(snapshot.segments().get(0), "B2 segment 0 after the writer"));
                for (int s = 1; s < SEGMENTS; s++) {
                    read.add(Drain.all(snapshot.segments().get(s), "B2 segment " + s + " after the writer"));
                }
                KeySchema schema = snapshot.description().keySchema();
                List<StoredItem> union = new ArrayList<>();
                read.forEach(union::addAll);
                List<Key> duplicates = new ArrayList<>();
                Map<Key, Item> seen = KitSupport.byKey(union, schema, duplicates);
                soft.assertThat(duplicates).as(rule + "segments are disjoint: no key twice (first 10: %s)",
                        duplicates.subList(0, Math.min(10, duplicates.size()))).isEmpty();
                soft.assertThat(KitSupport.differences(atOpen, seen))
                        .as(rule + "the union of the segments is exactly the items at the open, each at v = 1: every"
                                + " segment reads the one instant, also those first read after the writer committed")
                        .isEmpty();
                soft.assertThat(union).as(rule + "exactly the %d items of the instant", OneInstantChecks.TABLE_ITEMS)
                        .hasSize(OneInstantChecks.TABLE_ITEMS);
                List<Integer> sizes = read.stream().map(List::size).toList();
                System.out.println("[B2] " + fixture.backendName() + " " + layout + ": segment sizes " + sizes);
                if (snapshot.keyOrdered()) {
                    assertKeyRanges(soft, rule, read, schema, KitSupport.orderOf(snapshot.description()));
                }
                snapshot.segments().forEach(seg -> soft.assertThat(seg.isReleased())
                        .as(rule + "a drained segment has released its lease [S5]").isTrue());
            }
            soft.assertAll();
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    /** With nothing writing: the segments, in order, are the single stream item for item (same bytes). */
    static void unionIsTheSingleStream(ConformanceFixture fixture, OneInstantChecks.Layout layout, int segments) {
        String rule = "[B2] " + layout + ", " + segments + " segments: ";
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(7, LARGE_BYTES), new KitHooks(),
                Duration.ZERO))) {
            TableOperations tables = engine.tables();
            String table = createAndFill(tables, layout);
            List<String> single = new ArrayList<>();
            boolean singleOrdered;
            try (TableSnapshot s = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
                singleOrdered = s.keyOrdered();
                Drain.all(s.items(), "B2 single stream").forEach(i -> single.add(i.json()));
            }
            List<String> union = new ArrayList<>();
            try (SegmentedSnapshot snapshot = openOrSkip(engine, fixture, table, segments)) {
                SoftAssertions soft = new SoftAssertions();
                soft.assertThat(snapshot.keyOrdered()).as(rule + "keyOrdered as the single stream's").isEqualTo(singleOrdered);
                for (ItemStream seg : snapshot.segments()) {
                    Drain.all(seg, "B2 segment").forEach(i -> union.add(i.json()));
                }
                soft.assertThat(union).as(rule + "the segments in order are exactly the single stream")
                        .isEqualTo(single);
                soft.assertAll();
            }
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    private static String createAndFill(TableOperations tables, OneInstantChecks.Layout layout) {
        String table = KitSupport.uniqueName("b2_" + layout.name().toLowerCase(java.util.Locale.ROOT));
        tables.createTable(new CreateTableRequest(ACCOUNT, table, layout.schema(), layout.definitions(),
                List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                List.of(), Optional.empty()));
        KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
        for (int i = 0; i < OneInstantChecks.TABLE_ITEMS; i++) {
            tables.putItem(ACCOUNT, table, layout.item(i, 1));
        }
        return table;
    }

    /** Each segment strictly ascending, and every key of a segment below every key of the next. */
    private static void assertKeyRanges(SoftAssertions soft, String rule, List<List<StoredItem>> read, KeySchema schema,
                                        Optional<KeyOrder> order) {
        soft.assertThat(order).as(rule + "a keyOrdered table has a key order (D1)").isPresent();
        if (order.isEmpty()) {
            return;
        }
        Key previousLast = null;
        for (int s = 0; s < read.size(); s++) {
            List<Key> keys = KitSupport.keys(read.get(s), schema);
            soft.assertThat(KitSupport.firstOutOfOrder(keys, order.get()))
                    .as(rule + "segment %d strictly ascending by KeyOrder.compare", s).isEmpty();
            if (!keys.isEmpty()) {
                if (previousLast != null) {
                    soft.assertThat(order.get().compare(previousLast, keys.get(0)))
                            .as(rule + "segment %d's first key %s comes after the key range before it (last %s)", s,
                                    keys.get(0), previousLast)
                            .isNegative();
                }
                previousLast = keys.get(keys.size() - 1);
            }
        }
    }
}

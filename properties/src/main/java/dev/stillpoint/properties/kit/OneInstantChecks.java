package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.KitSupport.LARGE_BYTES;
import static dev.stillpoint.properties.kit.KitSupport.STEP_DEADLINE;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.opentest4j.TestAbortedException;

/** K1 (one instant under a concurrent writer) and K3 (the description is DescribeTable's). */
final class OneInstantChecks {

    static final int TABLE_ITEMS = 700;
    static final int PAGE_ROWS = 50;
    static final int FIRST_READ = 51;

    private OneInstantChecks() {
    }

    /**
     * The tables K1 runs on: every key shape of K5 (the seed's composite S hash with N range first),
     * and an unorderable one (that composite shape with the range key's definition gone from the
     * catalog row, as an old or hand-edited catalog has it), which streams in no key order [D1, Q3].
     */
    enum Layout {
        HASH_S_RANGE_N(KeyShapeChecks.Shape.HASH_S_RANGE_N, false),
        HASH_S(KeyShapeChecks.Shape.HASH_S, false),
        HASH_N(KeyShapeChecks.Shape.HASH_N, false),
        HASH_B(KeyShapeChecks.Shape.HASH_B, false),
        HASH_S_RANGE_S(KeyShapeChecks.Shape.HASH_S_RANGE_S, false),
        HASH_S_RANGE_B(KeyShapeChecks.Shape.HASH_S_RANGE_B, false),
        UNORDERABLE(KeyShapeChecks.Shape.HASH_S_RANGE_N, true);

        final KeyShapeChecks.Shape shape;
        final boolean unorderable;

        Layout(KeyShapeChecks.Shape shape, boolean unorderable) {
            this.shape = shape;
            this.unorderable = unorderable;
        }

        KeySchema schema() {
            return shape.rangeType().isPresent() ? KeySchema.composite("pk", "sk") : KeySchema.hashOnly("pk");
        }

        List<AttributeDefinition> definitions() {
            List<AttributeDefinition> out = new ArrayList<>();
            out.add(new AttributeDefinition("pk", shape.hashType()));
            shape.rangeType().ifPresent(t -> out.add(new AttributeDefinition("sk", t)));
            out.add(new AttributeDefinition("g", ScalarType.S));
            return out;
        }

        Item item(int i, int version) {
            Map<String, AttributeValue> a = new LinkedHashMap<>();
            if (shape.rangeType().isPresent()) {
                a.put("pk", AttributeValue.s("p" + (i % 10)));
                a.put("sk", value(shape.rangeType().get(), i));
            } else {
                a.put("pk", value(shape.hashType(), i));
            }
            a.put("g", AttributeValue.s("g" + (i % 5)));
            a.put("v", AttributeValue.n(Integer.toString(version)));
            return Item.of(a);
        }

        Key key(int i) {
            return Key.of(item(i, 1), schema());
        }

        private static AttributeValue value(ScalarType type, int i) {
            return switch (type) {
                case S -> AttributeValue.s("s" + i);
                case N -> AttributeValue.n(Integer.toString(i - 350));
                case B -> AttributeValue.b(new byte[] {(byte) (i >> 8), (byte) i});
            };
        }
    }

    private static boolean deleted(int i) {
        return i % 7 == 0;
    }

    private static <T> List<T> first10(List<T> list) {
        return list.subList(0, Math.min(10, list.size()));
    }

    static void k1(ConformanceFixture fixture) {
        k1(fixture, Layout.HASH_S_RANGE_N);
    }

    static void k1(ConformanceFixture fixture, Layout layout) {
        Expectations expect = fixture.expectations();
        boolean expectOrdered = expect.keyOrdered() && !layout.unorderable;
        // The seed's K1 keeps its messages; the other layouts name themselves.
        String rule = layout == Layout.HASH_S_RANGE_N ? "[K1] " : "[K1] " + layout + ": ";
        KitHooks hooks = new KitHooks();
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(PAGE_ROWS, LARGE_BYTES), hooks, Duration.ZERO));
             KitSupport.Threads threads = new KitSupport.Threads("K1")) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("k1_" + layout.name().toLowerCase(java.util.Locale.ROOT));
            tables.createTable(new CreateTableRequest(ACCOUNT, table, layout.schema(), layout.definitions(),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                    List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            Map<Key, Item> atOpen = new LinkedHashMap<>();
            for (int i = 0; i < TABLE_ITEMS; i++) {
                tables.putItem(ACCOUNT, table, layout.item(i, 1));
                atOpen.put(layout.key(i), layout.item(i, 1));
            }
            if (layout.unorderable) {
                // Unorderable for the open: the range key's definition gone from the catalog row.
                fixture.writeAttributeDefinitions(ACCOUNT, table, layout.definitions().stream()
                        .filter(d -> !d.name().equals("sk")).toList());
            }
            Set<Key> deletedKeys = new java.util.HashSet<>();
            Set<Key> insertedKeys = new java.util.HashSet<>();
            Map<Key, Item> finalRound = new LinkedHashMap<>();
            for (int i = 0; i < TABLE_ITEMS; i++) {
                if (deleted(i)) {
                    deletedKeys.add(layout.key(i));
                } else {
                    finalRound.put(layout.key(i), layout.item(i, 3));
                }
            }
            for (int i = TABLE_ITEMS; i < TABLE_ITEMS + 100; i++) {
                insertedKeys.add(layout.key(i));
                finalRound.put(layout.key(i), layout.item(i, 1));
            }

            SoftAssertions soft = new SoftAssertions();
            TableDescription before = tables.describeTable(ACCOUNT, table);
            long countAtOpen = hooks.roundTrips();
            try (TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
                TableDescription after = tables.describeTable(ACCOUNT, table);
                // K3, before the writer starts: the description is DescribeTable's.
                KitSupport.assertDescribesTheTable(soft, "K1/K3", snapshot, before, after);
                soft.assertThat(snapshot.keyOrdered())
                        .as(rule + "keyOrdered as the backend declares it (Expectations.keyOrdered), false on an "
                                + "unorderable table (D1)")
                        .isEqualTo(expectOrdered);

                List<StoredItem> first = Drain.take(snapshot.items(), FIRST_READ, "K1 first " + FIRST_READ + " items");
                long afterFirst = hooks.roundTrips();
                if (first.size() != FIRST_READ || afterFirst - countAtOpen < 2) {
                    soft.assertThat(first.size()).as(rule + "the first %d items of a %d-item table", FIRST_READ,
                            TABLE_ITEMS).isEqualTo(FIRST_READ);
                    soft.assertThat(afterFirst - countAtOpen)
                            .as(rule + "round trips since just before the open after %d items at a page of %d: at "
                                    + "least 2, or the page-size knob (KitSettings.pageBudget) did not take effect",
                                    FIRST_READ, PAGE_ROWS)
                            .isGreaterThanOrEqualTo(2);
                    soft.assertAll();
                }

                if (layout.unorderable) {
                    // The definition back before the writer (puts and deletes need it); the open
                    // snapshot keeps the definition and the items of its instant.
                    fixture.writeAttributeDefinitions(ACCOUNT, table, layout.definitions());
                }
                KitSupport.await(threads.submit(() -> {
                    for (Key k : deletedKeys) {
                        tables.deleteItem(ACCOUNT, table, KitSupport.requestKey(k, layout.schema()));
                    }
                    for (int i = TABLE_ITEMS; i < TABLE_ITEMS + 100; i++) {
                        tables.putItem(ACCOUNT, table, layout.item(i, 1));
                    }
                    for (int version = 2; version <= 3; version++) {
                        for (int i = 0; i < TABLE_ITEMS; i++) {
                            if (!deleted(i)) {
                                tables.putItem(ACCOUNT, table, layout.item(i, version));
                            }
                        }
                    }
                    return null;
                }), STEP_DEADLINE, "K1 writer: delete 100, insert 100, overwrite 600 twice");
                long afterWriter = hooks.roundTrips();

                List<StoredItem> rest = Drain.all(snapshot.items(), "K1 drain after the writer");
                List<StoredItem> all = new ArrayList<>(first);
                all.addAll(rest);
                KeySchema schema = snapshot.description().keySchema();
                List<Key> duplicates = new ArrayList<>();
                Map<Key, Item> seen = KitSupport.byKey(all, schema, duplicates);

                List<Key> missingDeleted = deletedKeys.stream().filter(k -> !seen.containsKey(k)).toList();
                List<Key> presentInserted = insertedKeys.stream().filter(seen::containsKey).toList();
                List<String> wrongVersion = seen.entrySet().stream()
                        .filter(e -> atOpen.containsKey(e.getKey()) && !atOpen.get(e.getKey()).equals(e.getValue()))
                        .map(e -> e.getKey() + " at v = " + e.getValue().get("v")).toList();
                soft.assertThat(duplicates).as(rule + "no key twice (first 10: %s)", first10(duplicates)).isEmpty();
                soft.assertThat(missingDeleted.size())
                        .as(rule + "every item deleted after the open is present (missing, first 10: %s)",
                                first10(missingDeleted))
                        .isZero();
                soft.assertThat(presentInserted.size())
                        .as(rule + "no item inserted after the open is present (present, first 10: %s)",
                                first10(presentInserted))
                        .isZero();
                soft.assertThat(wrongVersion.size())
                        .as(rule + "every item at its pre-open version v = 1 (first 10 others: %s)", first10(wrongVersion))
                        .isZero();
                soft.assertThat(all.size()).as(rule + "exactly the %d items of the instant", TABLE_ITEMS).isEqualTo(TABLE_ITEMS);
                soft.assertThat(hooks.roundTrips())
                        .as(rule + "the counter advanced after the writer committed: the stream kept fetching from "
                                + "its instant, not from a copy made during the open")
                        .isGreaterThan(afterWriter);
                if (snapshot.keyOrdered()) {
                    Optional<KeyOrder> order = KitSupport.orderOf(snapshot.description());
                    soft.assertThat(order).as(rule + "a keyOrdered table has a key order (D1)").isPresent();
                    order.ifPresent(o -> soft.assertThat(KitSupport.firstOutOfOrder(KitSupport.keys(all, schema), o))
                            .as(rule + "keys strictly ascending by KeyOrder.compare when keyOrdered").isEmpty());
                }
                soft.assertThat(snapshot.items().isReleased())
                        .as("[S5] a drained stream has released its lease").isTrue();
            }

            try (TableSnapshot second = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
                List<StoredItem> items = Drain.all(second.items(), "K1 second snapshot, after the writer");
                List<Key> duplicates = new ArrayList<>();
                Map<Key, Item> seen = KitSupport.byKey(items, second.description().keySchema(), duplicates);
                soft.assertThat(duplicates).as(rule + "second snapshot: no key twice").isEmpty();
                soft.assertThat(KitSupport.differences(finalRound, seen))
                        .as(rule + "a second snapshot after the writer shows the final round "
                                + "(600 items at v = 3 and the 100 inserted)")
                        .isEmpty();
            }
            soft.assertAll();
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    /** K3 on a table with a GSI, an LSI and a stream: the snapshot's description is DescribeTable's. */
    static void k3Indexes(ConformanceFixture fixture) {
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("k3");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.composite("pk", "sk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                            new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("l", ScalarType.S)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.composite("g", "sk"), Projection.keysOnly())),
                    List.of(LocalSecondaryIndex.of("by_l", KeySchema.composite("pk", "l"), Projection.include(List.of("v")))),
                    Optional.of(StreamSpecification.enabled("NEW_AND_OLD_IMAGES"))));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            for (int i = 0; i < 5; i++) {
                tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("p"), "sk",
                        AttributeValue.n(Integer.toString(i)), "g", AttributeValue.s("g"), "l", AttributeValue.s("l" + i),
                        "v", AttributeValue.n("1"))));
            }
            describeAndCompare(engine, table, "K3", Optional.empty());
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    /** K3 on a table given a restore record: the summary is in DescribeTable and kept by the snapshot. */
    static void k3Restored(ConformanceFixture fixture) {
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("k3r");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("only"))));
            RestoreSummary summary = new RestoreSummary(
                    Optional.of("arn:stillpoint:kit:" + ACCOUNT + ":table/source/backup/" + table),
                    Optional.of("arn:stillpoint:kit:" + ACCOUNT + ":table/source"),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS), false);
            try {
                engine.recordRestore(ACCOUNT, table, summary);
            } catch (UnsupportedOperationException e) {
                throw new TestAbortedException("[K3] " + fixture.backendName() + " keeps no restore records, so the "
                        + "restored-table comparison does not apply: " + e.getMessage());
            }
            describeAndCompare(engine, table, "K3 restored", Optional.of(summary));
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    private static void describeAndCompare(KitEngine engine, String table, String rule, Optional<RestoreSummary> restore) {
        TableOperations tables = engine.tables();
        SoftAssertions soft = new SoftAssertions();
        TableDescription before = tables.describeTable(ACCOUNT, table);
        restore.ifPresent(r -> soft.assertThat(before.restoreSummary())
                .as("[%s] DescribeTable carries the restore record just written", rule).contains(r));
        try (TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
            TableDescription after = tables.describeTable(ACCOUNT, table);
            KitSupport.assertDescribesTheTable(soft, rule, snapshot, before, after);
            restore.ifPresent(r -> soft.assertThat(snapshot.description().restoreSummary())
                    .as("[%s] the snapshot keeps the restore summary", rule).contains(r));
            soft.assertThat(snapshot.description().throughputModeSummary())
                    .as("[%s] the snapshot clears the throughput-mode summary", rule).isEmpty();
            Drain.all(snapshot.items(), rule + " drain");
        }
        soft.assertAll();
    }
}

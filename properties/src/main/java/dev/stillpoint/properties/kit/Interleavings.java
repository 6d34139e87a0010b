package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.KitSupport.LARGE_BYTES;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generated interleavings of writes, GSI additions and snapshot reads on one table [S1]: a model
 * of the table, and for each snapshot a copy of the model at its open. Every item a snapshot yields
 * must be its copy's item, a drained snapshot must have yielded exactly its copy, and its
 * description must have exactly the GSIs added before its open. Actions are records in a list, so a
 * failing run shrinks to the shortest list that still fails.
 */
public final class Interleavings {

    /** At most this many snapshots are open at once, below any engine's bound (an Open beyond it is skipped). */
    static final int MAX_OPEN = 2;
    static final int MAX_GSIS = 3;
    static final int SEEDED = 4;
    static final int PAGE_ROWS = 2;

    private Interleavings() {
    }

    /** One step of an interleaving. Picks index into what exists when the step runs, modulo its size. */
    public sealed interface Step {
    }

    /** Puts an item under a key never used before. */
    public record PutNew(int value) implements Step {
    }

    /** Overwrites an existing item (no-op on an empty table). */
    public record Overwrite(int pick, int value) implements Step {
    }

    /** Deletes an existing item (no-op on an empty table). */
    public record Delete(int pick) implements Step {
    }

    /** Opens a snapshot (skipped while {@value #MAX_OPEN} are open). */
    public record Open() implements Step {
    }

    /** Reads up to {@code count} items of an open snapshot. */
    public record Read(int pick, int count) implements Step {
    }

    /** Closes an open snapshot early. */
    public record Close(int pick) implements Step {
    }

    /** Reads an open snapshot to its end. */
    public record DrainAll(int pick) implements Step {
    }

    /** Adds a GSI (at most {@value #MAX_GSIS}). */
    public record AddGsi() implements Step {
    }

    /** The generator: up to 30 steps, writes and reads weighted so snapshots see changes between pages. */
    public static final class Steps implements ArbitrarySupplier<List<Step>> {
        @Override
        public Arbitrary<List<Step>> get() {
            Arbitrary<Integer> value = Arbitraries.integers().between(0, 99);
            Arbitrary<Integer> pick = Arbitraries.integers().between(0, 7);
            @SuppressWarnings("unchecked")
            Arbitrary<Step> step = Arbitraries.frequencyOf(
                    Tuple.of(3, value.map(PutNew::new)),
                    Tuple.of(3, Combinators.combine(pick, value).as(Overwrite::new)),
                    Tuple.of(2, pick.map(Delete::new)),
                    Tuple.of(2, Arbitraries.just(new Open())),
                    Tuple.of(3, Combinators.combine(pick, Arbitraries.integers().between(1, 5)).as(Read::new)),
                    Tuple.of(1, pick.map(Close::new)),
                    Tuple.of(1, pick.map(DrainAll::new)),
                    Tuple.of(1, Arbitraries.just(new AddGsi())));
            return step.list().ofMinSize(1).ofMaxSize(30);
        }
    }

    private static final class OpenSnapshot {
        final int number;
        final TableSnapshot snapshot;
        final Map<Key, Item> copy;
        final Set<Key> seen = new LinkedHashSet<>();
        Key last;

        OpenSnapshot(int number, TableSnapshot snapshot, Map<Key, Item> copy) {
            this.number = number;
            this.snapshot = snapshot;
            this.copy = copy;
        }
    }

    private static Item item(int key, int value) {
        return Item.of(Map.of("pk", AttributeValue.s("k" + key), "g", AttributeValue.s("g" + (value % 3)),
                "v", AttributeValue.n(Integer.toString(value))));
    }

    static void run(ConformanceFixture fixture, List<Step> steps) {
        Expectations expect = fixture.expectations();
        KeySchema schema = KeySchema.hashOnly("pk");
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(PAGE_ROWS, LARGE_BYTES),
                ReadObserver.NONE, Duration.ZERO))) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("s1");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, schema,
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            Map<Key, Item> model = new LinkedHashMap<>();
            Set<String> gsis = new TreeSet<>();
            List<OpenSnapshot> open = new ArrayList<>();
            int nextKey = 0;
            int opened = 0;
            for (; nextKey < SEEDED; nextKey++) {
                put(tables, table, model, schema, item(nextKey, nextKey));
            }
            try {
                int index = 0;
                for (Step step : steps) {
                    String at = "step " + index++ + " " + step;
                    if (step instanceof PutNew p) {
                        put(tables, table, model, schema, item(nextKey++, p.value()));
                    } else if (step instanceof Overwrite o && !model.isEmpty()) {
                        Key key = pick(new ArrayList<>(model.keySet()), o.pick());
                        String pk = ((AttributeValue.S) key.partition()).value();
                        put(tables, table, model, schema, item(Integer.parseInt(pk.substring(1)), o.value()));
                    } else if (step instanceof Delete d && !model.isEmpty()) {
                        Key key = pick(new ArrayList<>(model.keySet()), d.pick());
                        tables.deleteItem(ACCOUNT, table, KitSupport.requestKey(key, schema));
                        model.remove(key);
                    } else if (step instanceof Open && open.size() < MAX_OPEN) {
                        TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table);
                        OpenSnapshot s = new OpenSnapshot(opened++, snapshot, new LinkedHashMap<>(model));
                        open.add(s);
                        Set<String> described = new TreeSet<>();
                        snapshot.description().globalSecondaryIndexes().forEach(g -> described.add(g.name()));
                        check(described.equals(gsis), at, s, "its description has exactly the GSIs added before "
                                + "its open " + gsis + ", not " + described);
                        check(snapshot.keyOrdered() == expect.keyOrdered(), at, s,
                                "keyOrdered is " + snapshot.keyOrdered() + " but the backend declares "
                                        + expect.keyOrdered() + " [S3]");
                    } else if (step instanceof Read r && !open.isEmpty()) {
                        OpenSnapshot s = pick(open, r.pick());
                        List<StoredItem> got = Drain.take(s.snapshot.items(), r.count(), "S1 " + at);
                        accept(s, got, schema, at);
                        if (got.size() < r.count()) {
                            ended(s, at);
                            open.remove(s);
                        }
                    } else if (step instanceof DrainAll d && !open.isEmpty()) {
                        OpenSnapshot s = pick(open, d.pick());
                        accept(s, Drain.all(s.snapshot.items(), "S1 " + at), schema, at);
                        ended(s, at);
                        open.remove(s);
                    } else if (step instanceof Close c && !open.isEmpty()) {
                        OpenSnapshot s = pick(open, c.pick());
                        s.snapshot.close();
                        check(s.snapshot.items().isReleased(), at, s, "a closed stream is released [S5]");
                        open.remove(s);
                    } else if (step instanceof AddGsi && gsis.size() < MAX_GSIS) {
                        String name = "gsi_" + gsis.size();
                        tables.addGlobalSecondaryIndex(ACCOUNT, table, CreateGsiRequest.of(
                                GlobalSecondaryIndex.creating(name, KeySchema.hashOnly("g"), Projection.keysOnly()),
                                new AttributeDefinition("g", ScalarType.S)));
                        gsis.add(name);
                    }
                }
            } finally {
                open.forEach(s -> s.snapshot.close());
            }
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    private static void put(TableOperations tables, String table, Map<Key, Item> model, KeySchema schema, Item item) {
        tables.putItem(ACCOUNT, table, item);
        model.put(Key.of(item, schema), item);
    }

    private static <T> T pick(List<T> from, int pick) {
        return from.get(Math.floorMod(pick, from.size()));
    }

    private static void accept(OpenSnapshot s, List<StoredItem> got, KeySchema schema, String at) {
        Optional<KeyOrder> order = s.snapshot.keyOrdered() ? KitSupport.orderOf(s.snapshot.description()) : Optional.empty();
        for (StoredItem stored : got) {
            Item item = stored.item();
            Key key = Key.of(item, schema);
            check(s.seen.add(key), at, s, "yielded " + key + " twice");
            check(s.copy.containsKey(key), at, s, "yielded " + key + " = " + item
                    + ", which its instant did not hold (written or deleted after the open)");
            check(item.equals(s.copy.get(key)), at, s, "yielded " + item + " but its instant held " + s.copy.get(key));
            if (order.isPresent() && s.last != null) {
                check(order.get().compare(s.last, key) < 0, at, s, "keyOrdered, yet " + key + " came after " + s.last);
            }
            s.last = key;
        }
    }

    private static void ended(OpenSnapshot s, String at) {
        Set<Key> missing = new LinkedHashSet<>(s.copy.keySet());
        missing.removeAll(s.seen);
        check(missing.isEmpty(), at, s, "ended without " + missing + ", which its instant held");
    }

    private static void check(boolean holds, String at, OpenSnapshot s, String what) {
        if (!holds) {
            throw new AssertionError("[S1] snapshot " + s.number + " at " + at + ": " + what);
        }
    }
}

package dev.stillpoint.properties.kit;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the checks share: names, waits, threads and the comparisons every check makes the same way. */
final class KitSupport {

    static final String ACCOUNT = "kit";
    /** How long a freshly created table may take to turn ACTIVE (the engine's own poller activates it). */
    static final Duration ACTIVE_DEADLINE = Duration.ofSeconds(60);
    /** The bound on any one background step of a check (a writer, an UpdateTable, an open). */
    static final Duration STEP_DEADLINE = Duration.ofSeconds(120);
    /** A page budget whose byte bound never binds first, so pages are exactly {@code rows} items. */
    static final long LARGE_BYTES = 1L << 30;

    private static final Logger LOG = LoggerFactory.getLogger(KitSupport.class);
    private static final Duration POLL = Duration.ofMillis(10);

    private KitSupport() {
    }

    /** A table name no other check or run uses: {@code kit_<check>_<random>}. */
    static String uniqueName(String check) {
        return "kit_" + check + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** Polls DescribeTable until the table is {@code status}, waiting briefly between polls; fails at the deadline. */
    static TableDescription awaitStatus(TableOperations tables, String table, TableStatus status, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        TableDescription last = tables.describeTable(ACCOUNT, table);
        while (last.status() != status) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("table '" + table + "' is still " + last.status() + " after "
                        + deadline.toSeconds() + " s; the engine's poller should have made it " + status);
            }
            pause(POLL);
            last = tables.describeTable(ACCOUNT, table);
        }
        return last;
    }

    /** Waits on a latch nobody counts down: a bounded pause between polls, never a stand-in for a signal. */
    static void pause(Duration d) {
        try {
            new CountDownLatch(1).await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }

    /** The table's key order, when its keys have one [D1]. */
    static Optional<KeyOrder> orderOf(TableDescription description) {
        return KeyOrder.resolve(description.keySchema(), description.attributeDefinitions()).ordered();
    }

    /** The items by key, in stream order; a key yielded twice is reported (and kept once). */
    static Map<Key, Item> byKey(List<StoredItem> items, KeySchema schema, List<Key> duplicates) {
        Map<Key, Item> out = new LinkedHashMap<>();
        for (StoredItem stored : items) {
            Item item = stored.item();
            Key key = Key.of(item, schema);
            if (out.putIfAbsent(key, item) != null) {
                duplicates.add(key);
            }
        }
        return out;
    }

    /**
     * The request key naming {@code key}'s values as {@code schema} does: how the kit asks for an item whose
     * positional key it tracks. GetItem and DeleteItem take the request's key map [V3].
     */
    static RequestKey requestKey(Key key, KeySchema schema) {
        return key.sort().map(s -> RequestKey.of(schema.partitionKey(), key.partition(), schema.sortKey().orElseThrow(), s))
                .orElseGet(() -> RequestKey.of(schema.partitionKey(), key.partition()));
    }

    /** The keys in stream order. */
    static List<Key> keys(List<StoredItem> items, KeySchema schema) {
        List<Key> out = new ArrayList<>(items.size());
        for (StoredItem stored : items) {
            out.add(Key.of(stored.item(), schema));
        }
        return out;
    }

    /** How {@code actual} differs from {@code expected}: counts, then at most ten differing keys. */
    static List<String> differences(Map<Key, Item> expected, Map<Key, Item> actual) {
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        expected.forEach((k, v) -> {
            if (!actual.containsKey(k)) {
                missing.add(k.toString());
            } else if (!actual.get(k).equals(v)) {
                changed.add(k + ": expected " + v + ", got " + actual.get(k));
            }
        });
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> extra.add(k.toString()));
        List<String> out = new ArrayList<>();
        if (!missing.isEmpty()) {
            out.add(missing.size() + " missing, e.g. " + missing.subList(0, Math.min(10, missing.size())));
        }
        if (!extra.isEmpty()) {
            out.add(extra.size() + " extra, e.g. " + extra.subList(0, Math.min(10, extra.size())));
        }
        if (!changed.isEmpty()) {
            out.add(changed.size() + " different, e.g. " + changed.subList(0, Math.min(10, changed.size())));
        }
        return out;
    }

    /** The first place where {@code keys} is not strictly ascending by {@link KeyOrder#compare}, or empty. */
    static Optional<String> firstOutOfOrder(List<Key> keys, KeyOrder order) {
        for (int i = 1; i < keys.size(); i++) {
            if (order.compare(keys.get(i - 1), keys.get(i)) >= 0) {
                return Optional.of("item " + i + " " + keys.get(i) + " does not come after item " + (i - 1)
                        + " " + keys.get(i - 1));
            }
        }
        return Optional.empty();
    }

    /**
     * S2 / K3: the snapshot's description is the storage layer's DescribeTable of its instant, with
     * the running counts and the throughput summary cleared and the restore summary kept. With
     * nothing changing the table around the open, {@code before} and {@code after} agree and the
     * snapshot must equal them; if they differ (a background build finished), it must equal one.
     */
    static void assertDescribesTheTable(SoftAssertions soft, String rule, TableSnapshot snapshot,
                                        TableDescription before, TableDescription after) {
        TableDescription expectedBefore = before.dropDeletingIndexes().snapshotView();
        TableDescription expectedAfter = after.dropDeletingIndexes().snapshotView();
        if (expectedBefore.equals(expectedAfter)) {
            soft.assertThat(snapshot.description())
                    .as("[%s] the snapshot's description equals DescribeTable of its instant with counts and the "
                            + "throughput summary cleared, restore summary kept (S2)", rule)
                    .isEqualTo(expectedAfter);
        } else {
            soft.assertThat(snapshot.description())
                    .as("[%s] the snapshot's description equals DescribeTable just before or just after the open "
                            + "(they differ), counts and throughput summary cleared (S2)", rule)
                    .isIn(expectedBefore, expectedAfter);
        }
    }

    /** Deletes a table the check made, if it can; a failure here is logged, never the check's result. */
    static void bestEffortDelete(TableOperations tables, String table) {
        try {
            tables.deleteTable(ACCOUNT, table);
        } catch (StorageException | UnsupportedOperationException e) {
            LOG.info("kit: leaving table '{}' behind: {}", table, e.getMessage());
        }
    }

    /** Daemon threads for one check's background steps; closing interrupts what is left. */
    static final class Threads implements AutoCloseable {
        private final ExecutorService pool;

        Threads(String check) {
            AtomicInteger n = new AtomicInteger();
            this.pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "kit-" + check + "-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }

        ExecutorService executor() {
            return pool;
        }

        <T> Future<T> submit(Callable<T> task) {
            return pool.submit(task);
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }

    /** The result of {@code future} within {@code deadline}; a timeout or failure is an error naming {@code stage}. */
    static <T> T await(Future<T> future, Duration deadline, String stage) {
        try {
            return future.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("[K4] stage '" + stage + "' did not finish within " + deadline.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for stage '" + stage + "'", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            cause.addSuppressed(new Exception("in stage '" + stage + "'"));
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new AssertionError("stage '" + stage + "' failed", cause);
        }
    }
}

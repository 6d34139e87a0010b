package dev.stillpoint.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The core's bulk restore with several writers [B3] over fake loads (no database): writes running at once
 * each take a load of their own, never more loads than the backend's {@code writers()}; a write that finds
 * every load busy waits for one to be given back and then reuses it; finish makes every opened load durable
 * once; close closes each once. Threads meet at latches, never at sleeps.
 */
class BulkRestoreWritersTest {

    /** How long a latch or a write is waited for: far beyond what each takes. */
    private static final long BOUND_SECONDS = 10;
    private static final TableDescription RESTORING = new CreateTableRequest("acct", "Restored",
            KeySchema.hashOnly("pk"), List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(),
            Optional.empty()).describe("id-restored", "arn:stillpoint:acct:table/Restored",
            Instant.parse("2026-01-01T00:00:00Z"));

    /** Loads of two writers; each write holds its load until {@code release} opens, after saying it started. */
    private static final class HeldLoads implements BulkLoads {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch twoWriting = new CountDownLatch(2);
        final CountDownLatch release = new CountDownLatch(1);
        int opened;

        @Override
        public int writers() {
            return 2;
        }

        @Override
        public synchronized BulkLoad open(TableDescription table) {
            int id = ++opened;
            return new BulkLoad() {
                @Override
                public void write(List<ItemWrite> items) {
                    events.add("write " + id + " " + items.get(0).item().get("pk"));
                    twoWriting.countDown();
                    try {
                        assertThat(release.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("released").isTrue();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }

                @Override
                public void finish() {
                    events.add("finish " + id);
                }

                @Override
                public void close() {
                    events.add("close " + id);
                }
            };
        }
    }

    private static List<Item> one(String pk) {
        return List.of(Item.of(Map.of("pk", AttributeValue.s(pk))));
    }

    // B3: two writes at once hold two loads; a third waits until one is given back and reuses it, so no
    // more loads open than writers(); finish finishes each opened load once, close closes each once.
    @Test
    void b3_writesAtOnceTakeALoadEachAndAThirdWaitsForOneGivenBack() throws Exception {
        HeldLoads loads = new HeldLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        assertThat(restore.writers()).as("[B3] the backend's writers").isEqualTo(2);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<?> a = pool.submit(() -> restore.write(one("a"), n -> { }));
            Future<?> b = pool.submit(() -> restore.write(one("b"), n -> { }));
            assertThat(loads.twoWriting.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("[B3] two writes at once").isTrue();
            CountDownLatch thirdStarted = new CountDownLatch(1);
            Future<?> c = pool.submit(() -> {
                thirdStarted.countDown();
                restore.write(one("c"), n -> { });
            });
            assertThat(thirdStarted.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(loads.opened).as("[B3] two loads while two writes hold them").isEqualTo(2);
            loads.release.countDown();
            a.get(BOUND_SECONDS, TimeUnit.SECONDS);
            b.get(BOUND_SECONDS, TimeUnit.SECONDS);
            c.get(BOUND_SECONDS, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(loads.opened).as("[B3] the third write reused a load given back: never more than writers()")
                .isEqualTo(2);
        assertThat(loads.events).filteredOn(e -> e.startsWith("write")).hasSize(3);
        restore.finish();
        restore.close();
        assertThat(loads.events).filteredOn(e -> e.startsWith("finish")).as("each load made durable once")
                .containsExactlyInAnyOrder("finish 1", "finish 2");
        assertThat(loads.events).filteredOn(e -> e.startsWith("close")).as("each load closed once")
                .containsExactlyInAnyOrder("close 1", "close 2");
    }

    // B3: a write that waits for a load is woken by a close, refused, and opens nothing.
    @Test
    void b3_aWriteWaitingForALoadIsRefusedWhenTheRestoreCloses() throws Exception {
        HeldLoads loads = new HeldLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            pool.submit(() -> restore.write(one("a"), n -> { }));
            pool.submit(() -> restore.write(one("b"), n -> { }));
            assertThat(loads.twoWriting.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
            CountDownLatch thirdStarted = new CountDownLatch(1);
            Future<Throwable> c = pool.submit(() -> {
                thirdStarted.countDown();
                try {
                    restore.write(one("c"), n -> { });
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            assertThat(thirdStarted.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
            restore.close();
            loads.release.countDown();
            Throwable refused = c.get(BOUND_SECONDS, TimeUnit.SECONDS);
            assertThat(refused).as("[B3] the waiting write ends, refused, once the restore is closed")
                    .isNotNull().hasMessageContaining("it was closed");
        } finally {
            pool.shutdownNow();
        }
        assertThat(loads.opened).as("no load opened for the refused write").isEqualTo(2);
    }
}

package dev.stillpoint.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

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

    /** A third write, parked waiting for a load while two held writes hold both: what it ended with. */
    private static final class WaitingWrite {
        final Thread thread;
        volatile Throwable refused;
        volatile boolean stillInterrupted;

        /** Starts two held writes on {@code pool}, then the third on its own thread, and waits until it is parked. */
        WaitingWrite(BulkRestore restore, HeldLoads loads, ExecutorService pool) throws InterruptedException {
            pool.submit(() -> restore.write(one("a"), n -> { }));
            pool.submit(() -> restore.write(one("b"), n -> { }));
            assertThat(loads.twoWriting.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("[B3] two writes at once").isTrue();
            thread = new Thread(() -> {
                refused = catchThrowable(() -> restore.write(one("c"), n -> { }));
                stillInterrupted = Thread.currentThread().isInterrupted();
            });
            thread.start();
            awaitWaiting(thread);
        }

        void awaitEnd() throws InterruptedException {
            thread.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            assertThat(thread.isAlive()).as("[B3] the waiting write ended").isFalse();
        }
    }

    // B3: a write that waits for a load (seen waiting, its thread parked) is woken by the close itself, refused,
    // and opens nothing; the writes holding the loads are still held, so no load given back wakes it.
    @Test
    void b3_aWriteWaitingForALoadIsRefusedWhenTheRestoreCloses() throws Exception {
        HeldLoads loads = new HeldLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            WaitingWrite third = new WaitingWrite(restore, loads, pool);
            restore.close();
            third.awaitEnd();
            assertThat(third.refused).as("[B3] refused").isNotNull().hasMessageContaining("it was closed");
        } finally {
            loads.release.countDown();
            pool.shutdownNow();
        }
        assertThat(loads.opened).as("no load opened for the refused write").isEqualTo(2);
    }

    // B3: a write waiting for a load whose thread is interrupted stops waiting, is refused naming the table,
    // and keeps its thread's interrupt for its caller; nothing is opened for it.
    @Test
    void b3_aWriteWaitingForALoadStopsWhenInterrupted() throws Exception {
        HeldLoads loads = new HeldLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            WaitingWrite third = new WaitingWrite(restore, loads, pool);
            third.thread.interrupt();
            third.awaitEnd();
            assertThat(third.refused).as("[B3] refused naming the table").isNotNull()
                    .hasMessageContaining("interrupted waiting for a load").hasMessageContaining("Restored");
            assertThat(third.stillInterrupted).as("the interrupt kept for the caller").isTrue();
        } finally {
            loads.release.countDown();
            pool.shutdownNow();
        }
        restore.close();
        assertThat(loads.opened).as("no load opened for the interrupted write").isEqualTo(2);
    }

    // B1: a batch reaches its load in chunks of at most CHUNK_ITEMS items, each told once written.
    @Test
    void b1_aBatchIsWrittenInChunksOfAtMostChunkItems() {
        List<Integer> written = new ArrayList<>();
        BulkLoads one = table -> new BulkLoad() {
            @Override
            public void write(List<ItemWrite> items) {
                written.add(items.size());
            }

            @Override
            public void finish() {
            }

            @Override
            public void close() {
            }
        };
        BulkRestore restore = new BulkRestore(one, RESTORING);
        List<Item> batch = new ArrayList<>();
        for (int i = 0; i <= BulkRestore.CHUNK_ITEMS; i++) {
            batch.add(Item.of(Map.of("pk", AttributeValue.s("k" + i))));
        }
        List<Integer> told = new ArrayList<>();
        restore.write(batch, told::add);
        restore.close();
        assertThat(written).as("[B1] %d items in chunks of at most %d", batch.size(), BulkRestore.CHUNK_ITEMS)
                .containsExactly(BulkRestore.CHUNK_ITEMS, 1);
        assertThat(told).as("each chunk told with its size").containsExactly(BulkRestore.CHUNK_ITEMS, 1);
    }

    /** Waits (bounded) until {@code t} is parked waiting: a write waiting for a load waits on the restore's monitor. */
    private static void awaitWaiting(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (t.getState() != Thread.State.WAITING) {
            assertThat(System.nanoTime() - deadline).as("%s waiting for a load within %d s", t.getName(), BOUND_SECONDS)
                    .isNegative();
            new CountDownLatch(1).await(2, TimeUnit.MILLISECONDS);
        }
    }
}

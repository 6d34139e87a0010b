package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.ACCOUNT;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.awaitActive;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.item;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentSharing;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SQLite's segmented snapshot beyond the kit's b2_* rules [B2, Q1, Q4]: SQLite cannot share a read
 * transaction between connections, says so (ONE_READ), and serves every segment from its one read; the
 * segments may be read from several threads at once; an in-memory database cuts the copy of its open.
 */
class SqliteSegmentsTest {

    private static void load(SqliteStorage storage, String table, int n) throws InterruptedException {
        storage.tables().createTable(orders(table));
        awaitActive(storage, table);
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, table, item("p" + (i % 7), Integer.toString(i), "v" + i));
        }
    }

    private static List<String> single(SqliteStorage storage, String table) {
        List<String> out = new ArrayList<>();
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            s.items().forEachRemaining(i -> out.add(i.json()));
        }
        return out;
    }

    // [B2] the capability says the segments are ranges of one read, not parallel connections.
    @Test
    void b2_sqliteSaysItServesSegmentsFromOneRead() {
        assertThat(SqliteStorage.CAPABILITIES.segments()).isEqualTo(SegmentSharing.ONE_READ);
    }

    // [B2] four segments of one read, drained by four threads at once (page 3, so their page queries
    // interleave on the one connection): together, in segment order, exactly the single stream.
    @Test
    void b2_segmentsReadFromSeveralThreadsAreTheSingleStream() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile("segments"))
                .withControlPlaneDelay(Duration.ZERO).withPageBudget(new PageBudget(3, 1 << 20)))) {
            load(storage, "orders", 200);
            List<String> single = single(storage, "orders");
            try (SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, "orders",
                    StoredKeys.INCLUDED, 4)) {
                assertThat(storage.snapshotPermits().inUse()).as("a permit per segment").isEqualTo(4);
                List<Future<List<String>>> reads = new ArrayList<>();
                for (ItemStream segment : snapshot.segments()) {
                    reads.add(threads.submit(() -> {
                        List<String> out = new ArrayList<>();
                        segment.forEachRemaining(i -> out.add(i.json()));
                        return out;
                    }));
                }
                List<String> union = new ArrayList<>();
                List<Integer> sizes = new ArrayList<>();
                for (Future<List<String>> read : reads) {
                    List<String> part = read.get(60, TimeUnit.SECONDS);
                    sizes.add(part.size());
                    union.addAll(part);
                }
                assertThat(union).as("[B2] the segments in order are the single stream").isEqualTo(single);
                assertThat(sizes).as("[B2] cut at positions of the count: equal segments").containsExactly(50, 50, 50, 50);
            }
            assertThat(storage.snapshotPermits().inUse()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    // [B2, Q4] an in-memory database: the segments are ranges of the copy its open made, so they hold no
    // connection (a write goes on while they are open) and still are the single stream of the instant.
    @Test
    void b2_q4_inMemorySegmentsAreRangesOfTheCopy() throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.inMemory().withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(4, 1 << 20)))) {
            load(storage, "orders", 10);
            List<String> single = single(storage, "orders");
            // [B2, D7] all or none: the in-memory database has 2 permits, so 3 segments are refused whole.
            assertThatThrownBy(() -> storage.snapshots().openTableSnapshot(ACCOUNT, "orders", StoredKeys.OMITTED, 3))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED);
                        assertThat(e.getMessage()).contains("3 segments needs 3 permits, 2 are free");
                    });
            assertThat(storage.snapshotPermits().inUse()).as("a refused segmented snapshot holds no permit").isZero();
            try (SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, "orders",
                    StoredKeys.OMITTED, 2)) {
                storage.tables().putItem(ACCOUNT, "orders", item("new", "1", "written while the segments are open"));
                List<String> union = new ArrayList<>();
                snapshot.segments().forEach(s -> s.forEachRemaining(i -> union.add(i.json())));
                assertThat(union).isEqualTo(single);
            }
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }
}

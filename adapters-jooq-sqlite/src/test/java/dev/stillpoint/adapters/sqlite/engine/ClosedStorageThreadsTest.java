package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.ports.in.TableSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A closed storage leaves none of its threads running [S5]: an embedding server that opens and closes
 * storages (per tenant, per test) must not gain a thread each time. Found from outside: 300 openings and
 * closes of one SQLite file left 300 "Cleaner-N" threads, one per opening's snapshot engine, each ending
 * only when a full GC collected its closed storage. The storages stay referenced here, as a server's
 * field would keep them, so no collection can end such a thread and hide the leak.
 */
class ClosedStorageThreadsTest {

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    /** An opening that writes, streams a snapshot part-way and abandons it, then closes. */
    private static SqliteStorage openUseAndClose(Path file) {
        SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO));
        try (storage) {
            storage.tables().putItem(SqliteStorageTest.ACCOUNT, "orders", SqliteStorageTest.item("p", "1", "v"));
            try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(SqliteStorageTest.ACCOUNT, "orders")) {
                assertThat(snapshot.items().hasNext()).as("the snapshot holds the item").isTrue();
            }
        }
        return storage;
    }

    @Test
    void s5_closingAStorageEndsEveryThreadItStarted() throws Exception {
        Path file = TestDatabases.newFile("closed-threads");
        try (SqliteStorage first = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            first.tables().createTable(SqliteStorageTest.orders("orders"));
            SqliteStorageTest.awaitActive(first, "orders");
        }
        // Warmed up: whatever the process keeps one of (a driver's, the JDK's) exists from here on.
        openUseAndClose(file);
        Set<Thread> before = liveThreads();

        List<SqliteStorage> closed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            closed.add(openUseAndClose(file));
        }

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Object tick = new Object();
        List<String> left;
        do {
            left = liveThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
            if (left.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
            synchronized (tick) {
                tick.wait(10);
            }
        } while (true);
        assertThat(left).as("threads still running 10 s after %d storages closed (%d kept referenced)",
                closed.size(), closed.size()).isEmpty();
    }
}

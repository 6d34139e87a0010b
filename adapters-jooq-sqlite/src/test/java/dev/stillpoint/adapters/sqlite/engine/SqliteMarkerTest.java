package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.ACCOUNT;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.awaitActive;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.item;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.ports.in.TableSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * [L5] The SQLite snapshot marker {@code <table_id>@<commit sequence>} names the instant: snapshots
 * with an engine write between them never share it; snapshots with none between always do.
 * Before the commit sequence the marker was {@code PRAGMA data_version}, which is per connection and
 * repeats: run by hand against that marker, all three tests failed (the first saw 5 distinct markers of 10,
 * each repeated once).
 */
class SqliteMarkerTest {

    private static SqliteStorage storage(Path file) {
        return SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO).withPool(4, 2));
    }

    private static String marker(SqliteStorage storage, String table) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            return s.info().marker();
        }
    }

    @Test
    void l5_tenSnapshotsWithAWriteBetweenEachHaveTenMarkers() throws Exception {
        try (SqliteStorage storage = storage(TestDatabases.newFile("marker-distinct"))) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            storage.tables().createTable(orders("other"));
            awaitActive(storage, "other");
            // Every kind of engine write advances it: a put, an overwrite, a delete, a write to ANOTHER
            // table (the snapshot still saw a different instant), a delete of a missing item, a GSI.
            List<Consumer<Integer>> writes = List.of(
                    i -> storage.tables().putItem(ACCOUNT, "orders", item("p", "1", "v" + i)),
                    i -> storage.tables().putItem(ACCOUNT, "orders", item("p", "1", "w" + i)),
                    i -> storage.tables().deleteItem(ACCOUNT, "orders", RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.N.of("1"))),
                    i -> storage.tables().putItem(ACCOUNT, "other", item("q", Integer.toString(i), "x")),
                    i -> storage.tables().deleteItem(ACCOUNT, "orders", RequestKey.of("pk", AttributeValue.s("none"), "sk", AttributeValue.N.of("0"))));
            List<String> markers = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                markers.add(marker(storage, "orders"));
                writes.get(i % writes.size()).accept(i);
            }
            assertThat(new HashSet<>(markers)).as("markers %s", markers).hasSize(10);
            assertThat(markers).allSatisfy(m -> assertThat(m).matches("[a-z0-9]+@\\d+"));
        }
    }

    @Test
    void l5_snapshotsWithNoWriteBetweenShareTheMarkerAcrossConnectionsAndReopens() throws Exception {
        Path file = TestDatabases.newFile("marker-same");
        String first;
        try (SqliteStorage storage = storage(file)) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            storage.tables().putItem(ACCOUNT, "orders", item("p", "1", "v"));
            first = marker(storage, "orders");
            // Two held at once land on different pooled connections: same commits seen, same marker.
            try (TableSnapshot a = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
                 TableSnapshot b = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                assertThat(a.info().marker()).isEqualTo(first).isEqualTo(b.info().marker());
                // A write while they are held: the open snapshots keep their instant, a new one moves on.
                storage.tables().putItem(ACCOUNT, "orders", item("p", "2", "v"));
                assertThat(a.info().marker()).isEqualTo(first);
            }
            String after = marker(storage, "orders");
            assertThat(after).isNotEqualTo(first);
        }
        // An opening's first pass recounts ItemCount, a write whenever the counts changed (here 0 to 2): it raced
        // the marker read and failed CI once (run 86, "@4" against "@5"). Once a pass has recorded them, a reopen
        // whose recount finds nothing new commits nothing.
        try (SqliteStorage settled = afterFirstPass(storage(file))) {
            first = marker(settled, "orders");
        }
        try (SqliteStorage reopened = afterFirstPass(storage(file))) {
            assertThat(marker(reopened, "orders")).as("a reopen is no write").isEqualTo(first);
        }
    }

    private static SqliteStorage afterFirstPass(SqliteStorage storage) throws InterruptedException {
        assertThat(storage.awaitStartupRecovery(Duration.ofSeconds(30))).as("the first pass within 30 s").isTrue();
        return storage;
    }

    @Test
    void l5_aSnapshotHeldAcrossAWriteKeepsTheMarkerOfWhatItSaw() throws Exception {
        try (SqliteStorage storage = storage(TestDatabases.newFile("marker-held"))) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            storage.tables().putItem(ACCOUNT, "orders", item("p", "1", "v"));
            try (TableSnapshot held = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                storage.tables().putItem(ACCOUNT, "orders", item("p", "2", "v"));
                String later = marker(storage, "orders");
                assertThat(later).isNotEqualTo(held.info().marker());
                List<String> seen = new ArrayList<>();
                held.items().forEachRemaining(i -> seen.add(i.json()));
                assertThat(seen).as("the held snapshot saw one item, as its marker says").hasSize(1);
            }
        }
    }
}

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
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The snapshot idle limit on SQLite [L1]. Under WAL a DeleteTable never waits for a reader (the
 * reader keeps its snapshot of the dropped table), so what an abandoned stream holds here is its
 * read transaction (the WAL cannot be checkpointed past it) and its slot: both come back at the
 * idle limit with no garbage collection (the stream stays referenced), and the stream then fails
 * SnapshotExpired naming the limit.
 */
class SqliteLeaseIdleTest {

    private static final Duration LIMIT = Duration.ofSeconds(2);

    // [L1] Mutant run by hand: the IDLE_EXPIRED release without END_TRANSACTION -> "not busy after
    // the expiry" fails (busy 1), the slot alone came back.
    @Test
    void l1_anAbandonedSnapshotGivesBackItsTransactionAndSlotAtTheIdleLimit() throws Exception {
        Path file = TestDatabases.newFile("idle");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(10, 1 << 20)).withPool(4, 2).withSnapshotIdleLimit(LIMIT))) {
            storage.tables().createTable(orders("orders"));
            storage.tables().createTable(orders("other"));
            awaitActive(storage, "orders");
            awaitActive(storage, "other");
            for (int i = 0; i < 30; i++) {
                storage.tables().putItem(ACCOUNT, "orders", item("p" + (i % 7), Integer.toString(i), "v" + i));
            }
            TableSnapshot abandoned = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            abandoned.items().next();
            long lastFetch = System.nanoTime();
            assertThat(storage.snapshotPermits().inUse()).isEqualTo(1);
            // Writes while it is held: the WAL cannot be checkpointed past the snapshot.
            for (int i = 0; i < 20; i++) {
                storage.tables().putItem(ACCOUNT, "other", item("w", Integer.toString(i), "x".repeat(200)));
            }
            // DeleteTable under WAL does not wait for the reader [Q1]: gone at once.
            assertThat(storage.tables().deleteTable(ACCOUNT, "orders").status()).isEqualTo(TableStatus.DELETING);

            long end = System.nanoTime() + LIMIT.plusSeconds(30).toNanos();
            while (storage.snapshotPermits().inUse() != 0) {
                assertThat(System.nanoTime() - end).as("slot back within the limit + 30 s").isNegative();
                new CountDownLatch(1).await(5, TimeUnit.MILLISECONDS);
            }
            Duration sinceFetch = Duration.ofNanos(System.nanoTime() - lastFetch);
            System.out.printf("L1 SQLite: slot back %d ms after the last page fetch (idle limit %d ms)%n",
                    sinceFetch.toMillis(), LIMIT.toMillis());
            assertThat(sinceFetch).isGreaterThanOrEqualTo(LIMIT).isLessThan(LIMIT.plusSeconds(3));

            try (Connection c = TestDatabases.openFile(file);
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                rs.next();
                assertThat(rs.getInt(1)).as("not busy after the expiry: the read transaction ended").isZero();
            }
            assertThat(Files.size(Path.of(file + "-wal"))).isZero();
            assertThatThrownBy(() -> abandoned.items().hasNext())
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
                        assertThat(e.getMessage()).contains("2 s").contains("snapshotIdleLimit");
                    });
            abandoned.close();
        }
    }

    // [L1] the setting is validated, the error naming the bad value; the default is 60 s.
    @Test
    void l1_anIdleLimitOutOfRangeIsRefusedNamingIt() {
        assertThatThrownBy(() -> SqliteConfig.inMemory().withSnapshotIdleLimit(Duration.ofDays(2)))
                .isInstanceOfSatisfying(StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining("snapshotIdleLimit").hasMessageContaining("172800 s");
        assertThat(SqliteConfig.inMemory().snapshotIdleLimit()).isEqualTo(Duration.ofSeconds(60));
    }
}

package dev.stillpoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.StorageEvents;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The X1 meters on a real PostgreSQL, embedded and started by this suite [X1]; each test in a database
 * of its own. Here an open snapshot holds a DeleteTable up, so the deferred drop is seen too.
 */
class PostgresMetersTest extends MetersContract {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;
    private String database;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder()
                .setDataDirectory(Files.createTempDirectory("stillpoint-metrics-pg"))
                .setCleanDataDirectory(true)
                .setServerConfig("max_connections", "100")
                .setServerConfig("fsync", "off")
                .start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Override
    Storage open(StorageEvents events, Duration idleLimit) throws Exception {
        database = "sp_metrics_" + DATABASES.incrementAndGet();
        sql("postgres", "CREATE DATABASE " + database);
        return PostgresStorage.open(PostgresConfig.shared(new PostgresConfig.Database(
                        server.getJdbcUrl("postgres", database), "postgres", ""))
                .withPollerSchedule(new PollerSchedule(Duration.ofMillis(100), Duration.ofMillis(100)))
                .withSnapshotIdleLimit(idleLimit)
                .withEvents(events));
    }

    @Override
    void breakCatalog() throws Exception {
        sql(database, "ALTER TABLE sp_tables RENAME TO sp_tables_away");
    }

    @Override
    void mendCatalog() throws Exception {
        sql(database, "ALTER TABLE sp_tables_away RENAME TO sp_tables");
    }

    private static void sql(String db, String statement) throws Exception {
        try (Connection c = server.getDatabase("postgres", db).getConnection();
             Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    /** DeleteTable behind an open stream is deferred [D5]: pending while it is held, aging, gone once the stream closes. */
    @Test
    void aDropHeldByAnOpenStreamIsPendingAndAgesUntilTheStreamCloses() throws Exception {
        createOrdersWithItems(1);
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
            assertThat(storage.tables().deleteTable(ACCOUNT, TABLE).status()).isEqualTo(TableStatus.DELETING);
            await("deferred drops pending", () -> gauge(StillpointMeters.DROPS_DEFERRED), 1);
            long sawPending = System.nanoTime();
            // Three more passes each defer it again; its age counts from the first, not from the latest.
            long passes = timerCount(StillpointMeters.PASSES, "outcome", "ok");
            await("three passes more", () -> timerCount(StillpointMeters.PASSES, "outcome", "ok"), passes + 3);
            double waitedMs = (System.nanoTime() - sawPending) / 1e6;
            assertThat(gauge(StillpointMeters.DROPS_DEFERRED)).as("deferred drops pending while held").isEqualTo(1);
            assertThat(registry.get(StillpointMeters.DROPS_DEFERRED_OLDEST).timeGauge().value(TimeUnit.MILLISECONDS))
                    .as("the oldest deferred drop's age (ms) is at least the %.0f ms since it was first seen", waitedMs)
                    .isGreaterThanOrEqualTo(waitedMs - 20);
            assertThat(snapshot.description().tableName()).isEqualTo(TABLE);
        }
        TableWaiter.awaitDeleted(storage.tables(), ACCOUNT, TABLE, Duration.ofSeconds(10));
        long passes = timerCount(StillpointMeters.PASSES, "outcome", "ok");
        await("a pass after the drop", () -> timerCount(StillpointMeters.PASSES, "outcome", "ok"), passes + 1);
        assertThat(gauge(StillpointMeters.DROPS_DEFERRED)).as("deferred drops after the stream closed").isZero();
        assertThat(registry.get(StillpointMeters.DROPS_DEFERRED_OLDEST).timeGauge().value(TimeUnit.MILLISECONDS))
                .as("oldest deferred drop's age after the stream closed").isZero();
    }
}

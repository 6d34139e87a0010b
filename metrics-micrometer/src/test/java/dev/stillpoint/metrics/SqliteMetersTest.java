package dev.stillpoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.out.StorageEvents;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The X1 meters on a real SQLite file [X1]. */
class SqliteMetersTest extends MetersContract {

    private Path file;

    @Override
    Storage open(StorageEvents events, Duration idleLimit) {
        file = dir.resolve("metrics-" + System.nanoTime() + ".sqlite");
        return SqliteStorage.open(SqliteConfig.file(file)
                .withPollerSchedule(new PollerSchedule(Duration.ofMillis(100), Duration.ofMillis(100)))
                .withSnapshotIdleLimit(idleLimit)
                .withEvents(events));
    }

    /** Renames the catalog's table from a connection of its own, as an operator's mistake would. */
    @Override
    void breakCatalog() throws Exception {
        rename("sp_tables", "sp_tables_away");
    }

    @Override
    void mendCatalog() throws Exception {
        rename("sp_tables_away", "sp_tables");
    }

    private void rename(String from, String to) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 5000");
            s.execute("ALTER TABLE " + from + " RENAME TO " + to);
        }
    }

    /** Under WAL nothing holds a SQLite drop up: DeleteTable with a stream open completes, nothing deferred. */
    @Test
    void aDeleteBesideAnOpenStreamDefersNothingOnSqlite() throws Exception {
        createOrdersWithItems(1);
        try (var snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
            storage.tables().deleteTable(ACCOUNT, TABLE);
            long passes = timerCount(StillpointMeters.PASSES, "outcome", "ok");
            await("a pass after the delete", () -> timerCount(StillpointMeters.PASSES, "outcome", "ok"), passes + 1);
            assertThat(gauge(StillpointMeters.DROPS_DEFERRED)).as("deferred drops on SQLite").isZero();
            assertThat(snapshot.description().tableName()).isEqualTo(TABLE);
        }
    }
}

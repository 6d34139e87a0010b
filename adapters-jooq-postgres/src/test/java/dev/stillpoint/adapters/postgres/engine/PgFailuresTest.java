package dev.stillpoint.adapters.postgres.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.PgServer;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.adapters.postgres.testing.ScratchDatabase;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.sql.Connection;
import java.util.List;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQLSTATE mapping, fed with real errors raised on the live server (never hand-made exceptions):
 * 40001 and 72000 end a snapshot's stream as SnapshotExpired [P5]; 55P03, 40P01 and 57014 are the
 * lock-wait failures that defer a drop [P7, D5]; the message carries the server's own condition
 * name and message [D10].
 */
class PgFailuresTest {

    private static ScratchDatabase database;

    @BeforeAll
    static void create() throws SQLException {
        database = PgServer.get().create("failures");
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            // A function that fails with the given SQLSTATE, so a snapshot's page can fail with it.
            s.execute("CREATE FUNCTION sp_fail(code text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN "
                    + "RAISE EXCEPTION 'raised for the test' USING ERRCODE = code; END $$");
        }
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            database.close();
        }
    }

    private static SQLException raised(String sqlState) throws SQLException {
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            s.execute("DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '" + sqlState + "'; END $$");
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("the server did not raise " + sqlState);
    }

    @ParameterizedTest
    @ValueSource(strings = {"40001", "72000"})
    void p5_recoveryConflictAndSnapshotTooOldAreSnapshotExpired(String sqlState) throws SQLException {
        SQLException e = raised(sqlState);
        assertThat(e.getSQLState()).isEqualTo(sqlState);
        StorageException mapped = PgFailures.mapSnapshot("reading a page", e);
        assertThat(mapped.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
        assertThat(mapped.reason().retryable()).isTrue();
        assertThat(mapped.getMessage()).contains("SQLSTATE " + sqlState).contains("raised for the test")
                .contains(sqlState.equals("40001") ? "serialization_failure" : "snapshot_too_old");
    }

    // The same codes raised by the snapshot's query, as a page reads it, end the page source with SnapshotExpired.
    @ParameterizedTest
    @ValueSource(strings = {"40001", "72000"})
    void p5_aFetchFailingWithTheCodeIsSnapshotExpired(String sqlState) throws SQLException {
        Connection c = database.connect();
        c.setAutoCommit(false);
        CursorPages pages = new CursorPages(java.util.function.UnaryOperator.identity(), c, "SELECT sp_fail('" + sqlState + "')", List.of(), "t", ReadObserver.NONE);
        StorageException e = catchThrowableOfType(StorageException.class, () -> pages.nextPage(PageBudget.DEFAULT));
        assertThat(e.reason()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
        pages.close();
        assertThat(c.isClosed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"55P03", "40P01", "57014"})
    void p7_lockTimeoutDeadlockAndStatementTimeoutAreLockWaits(String sqlState) throws SQLException {
        SQLException e = raised(sqlState);
        assertThat(PgFailures.isLockWait(PgFailures.sqlState(e))).isTrue();
        assertThat(PgFailures.map("dropping", e).reason()).isEqualTo(ErrorReason.TRANSIENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2BP01", "42501", "XX000"})
    void p7_otherDropFailuresAreNotLockWaits(String sqlState) throws SQLException {
        SQLException e = raised(sqlState);
        assertThat(PgFailures.isLockWait(PgFailures.sqlState(e))).isFalse();
        assertThat(PgFailures.isSnapshotExpired(PgFailures.sqlState(e))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"42P01"})
    void undefinedTableIsTableNotFound(String sqlState) throws SQLException {
        assertThat(PgFailures.map("reading", raised(sqlState)).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }

    // Found from outside: with idle_in_transaction_session_timeout = '1s' on the database, a snapshot read with a
    // pause after its first item ended INTERNAL "(SQLSTATE 25P03): terminating connection due to idle-in-transaction
    // timeout". The server discarded the snapshot: SnapshotExpired, retryable, naming the setting.
    @org.junit.jupiter.api.Test
    void p5_aSnapshotTheServerEndsForIdlingIsSnapshotExpiredNamingTheSetting() throws Exception {
        ScratchDatabase idle = PgServer.get().create("idle");
        try (idle) {
            try (Connection c = idle.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER DATABASE \"" + idle.name() + "\" SET idle_in_transaction_session_timeout = '3s'");
            }
            PostgresConfig config = PostgresConfig.shared(idle.database()).withControlPlaneDelay(java.time.Duration.ZERO)
                    .withPageBudget(new PageBudget(2, 1 << 20));
            try (PostgresStorage storage = PostgresStorage.open(config)) {
                TableDescription table = Tables.createActive(storage.tables(), Tables.withIndexes(Tables.uniqueName("idle")));
                for (int i = 0; i < 10; i++) {
                    storage.tables().putItem(Tables.ACCOUNT, table.tableName(), Tables.item("k" + i, i, "g", "l"));
                }
                try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(Tables.ACCOUNT, table.tableName())) {
                    var items = snapshot.items();
                    items.next();
                    // The snapshot's transaction idles until the server ends it: its session seen idle, then gone.
                    awaitGone(idle, awaitIdleReader(idle, "d_" + table.tableId()));
                    StorageException e = catchThrowableOfType(StorageException.class, () -> {
                        while (items.hasNext()) {
                            items.next();
                        }
                    });
                    assertThat(e).as("the stream after the server ended its transaction").isNotNull();
                    assertThat(e.reason()).as(e.getMessage()).isEqualTo(ErrorReason.SNAPSHOT_EXPIRED);
                    assertThat(e.getMessage()).contains("idle_in_transaction_session_timeout (SQLSTATE 25P03)")
                            .contains("open a new one");
                }
            }
        }
    }

    /** The pid of the session of {@code db} idle in a transaction that read {@code relation}, polled for 30 s at most. */
    private static int awaitIdleReader(ScratchDatabase db, String relation) throws Exception {
        return poll(db, "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                + " AND state = 'idle in transaction' AND query LIKE '%" + relation + "%'", pid -> pid != null,
                "a session idle in a transaction over " + relation);
    }

    /** Returns once session {@code pid} is gone, polled for 30 s at most. */
    private static void awaitGone(ScratchDatabase db, int pid) throws Exception {
        poll(db, "SELECT pid FROM pg_stat_activity WHERE pid = " + pid, found -> found == null,
                "session " + pid + " ended by the server");
    }

    /** Runs {@code query} 20 ms apart until {@code done} holds of its first value (null: no row); 30 s at most. */
    private static Integer poll(ScratchDatabase db, String query, java.util.function.Predicate<Integer> done, String what)
            throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        try (Connection c = db.connect()) {
            while (true) {
                try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(query)) {
                    Integer value = rs.next() ? rs.getInt(1) : null;
                    if (done.test(value)) {
                        return value;
                    }
                }
                assertThat(System.nanoTime()).as("%s within 30 s", what).isLessThan(deadline);
                Thread.sleep(20); // a poll's interval under the deadline
            }
        }
    }

    // Found from outside: a restore into a full tablespace said "(SQLSTATE 53100): could not extend file ...: wrote
    // only 4096 of 8192 bytes", not that the disk was full; and a snapshot the server ended for idling said only
    // "(SQLSTATE 25P03)". Class 53 is retryable, and so are the server's idle and age limits (25P03, 25P04, 57P05),
    // which end the session; every one is named.
    @ParameterizedTest
    @ValueSource(strings = {"53100", "53200", "53300", "25P03", "25P04", "57P05"})
    void transientConditionsAreNamed(String sqlState) throws SQLException {
        StorageException mapped = PgFailures.map("writing", raised(sqlState));
        assertThat(mapped.reason()).isEqualTo(ErrorReason.TRANSIENT);
        assertThat(mapped.getMessage()).contains(switch (sqlState) {
            case "53100" -> "disk_full";
            case "53200" -> "out_of_memory";
            case "53300" -> "too_many_connections";
            case "25P03" -> "idle_in_transaction_session_timeout";
            case "25P04" -> "transaction_timeout";
            default -> "idle_session_timeout";
        } + " (SQLSTATE " + sqlState + ")");
    }
}

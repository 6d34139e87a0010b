package dev.stillpoint.adapters.postgres.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.postgres.testing.PgServer;
import dev.stillpoint.adapters.postgres.testing.ScratchDatabase;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
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

    // Found from outside: a restore into a full tablespace said "(SQLSTATE 53100): could not extend file ...: wrote
    // only 4096 of 8192 bytes", not that the disk was full. Class 53 is retryable, and its conditions are named.
    @ParameterizedTest
    @ValueSource(strings = {"53100", "53200", "53300"})
    void insufficientResourcesAreTransientAndNamed(String sqlState) throws SQLException {
        StorageException mapped = PgFailures.map("writing", raised(sqlState));
        assertThat(mapped.reason()).isEqualTo(ErrorReason.TRANSIENT);
        assertThat(mapped.getMessage()).contains(switch (sqlState) {
            case "53100" -> "disk_full (SQLSTATE 53100)";
            case "53200" -> "out_of_memory (SQLSTATE 53200)";
            default -> "too_many_connections (SQLSTATE 53300)";
        });
    }
}

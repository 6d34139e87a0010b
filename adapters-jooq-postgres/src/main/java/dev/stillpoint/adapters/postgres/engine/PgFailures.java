package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.DriverText;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.Map;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Maps PostgreSQL's errors into the closed set [D10], by SQLSTATE, keeping the server's own
 * condition name and message (never a dump of the reply).
 */
public final class PgFailures {

    /** The condition names of the SQLSTATEs this adapter treats specially, as PostgreSQL spells them. */
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("40001", "serialization_failure"),
            Map.entry("72000", "snapshot_too_old"),
            Map.entry("55P03", "lock_not_available"),
            Map.entry("40P01", "deadlock_detected"),
            Map.entry("57014", "query_canceled"),
            Map.entry("42P01", "undefined_table"),
            Map.entry("23505", "unique_violation"),
            Map.entry("2BP01", "dependent_objects_still_exist"),
            Map.entry("25006", "read_only_sql_transaction"),
            Map.entry("57P01", "admin_shutdown"),
            Map.entry("08001", "sqlclient_unable_to_establish_sqlconnection"),
            Map.entry("08006", "connection_failure"),
            Map.entry("22021", "character_not_in_repertoire"),
            Map.entry("22003", "numeric_value_out_of_range"),
            Map.entry("28P01", "invalid_password"),
            Map.entry("28000", "invalid_authorization_specification"),
            Map.entry("3D000", "invalid_catalog_name"),
            Map.entry("42501", "insufficient_privilege"),
            Map.entry("08004", "sqlserver_rejected_establishment_of_sqlconnection"),
            // Class 53 is TRANSIENT (below); found from outside, a full tablespace said only "could not extend file".
            Map.entry("53100", "disk_full"),
            Map.entry("53200", "out_of_memory"),
            Map.entry("53300", "too_many_connections"),
            Map.entry("25P03", "idle_in_transaction_session_timeout"),
            Map.entry("25P04", "transaction_timeout"),
            Map.entry("57P05", "idle_session_timeout"));

    private PgFailures() {
    }

    /** The SQLSTATE of {@code e} or of the first SQLException among its causes; empty when none. */
    public static String sqlState(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return "";
    }

    /** Whether a drop failed waiting for a lock: lock timeout, deadlock victim, statement timeout [P7, D5]. */
    public static boolean isLockWait(String sqlState) {
        return sqlState.equals("55P03") || sqlState.equals("40P01") || sqlState.equals("57014");
    }

    /**
     * Whether the server discarded a snapshot: a recovery conflict (40001), snapshot_too_old (72000) [P5], or the
     * server's own limit on a transaction's idle time or age (25P03, 25P04), which ends the session (found from
     * outside: with {@code idle_in_transaction_session_timeout = '1s'}, an export read slowly failed INTERNAL with
     * an unnamed SQLSTATE).
     */
    public static boolean isSnapshotExpired(String sqlState) {
        return sqlState.equals("40001") || sqlState.equals("72000") || endsTransactionByLimit(sqlState);
    }

    /** The server's limit on a transaction's idle time (25P03) or age (25P04) ended it, and its session. */
    private static boolean endsTransactionByLimit(String sqlState) {
        return sqlState.equals("25P03") || sqlState.equals("25P04");
    }

    /**
     * Whether a login failed for a reason no retry mends [O3]: authentication (28P01, 28000), an unknown
     * database (3D000), a missing privilege (42501, such as no CONNECT), or a connection the server
     * rejected before login (08004, such as no password offered to a server that asks for one).
     */
    public static boolean isPermanentLoginFailure(String sqlState) {
        return sqlState.startsWith("28") || sqlState.equals("3D000") || sqlState.equals("42501")
                || sqlState.equals("08004");
    }

    /** The reason for a failure outside a snapshot read. */
    static ErrorReason reasonOf(String state, Throwable e) {
        if (isPermanentLoginFailure(state)) {
            // A misconfigured deployment: INTERNAL is the closed set's non-retryable failure of the storage layer [D10].
            return ErrorReason.INTERNAL;
        }
        if (state.equals("42P01")) {
            return ErrorReason.TABLE_NOT_FOUND;
        }
        if (isLockWait(state) || state.equals("40001") || state.startsWith("08") || state.startsWith("53")
                || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")
                || (state.isEmpty() && e instanceof SQLTransientException)) {
            return ErrorReason.TRANSIENT;
        }
        if (state.startsWith("22")) {
            return ErrorReason.VALIDATION;
        }
        if (state.equals("25006")) {
            return ErrorReason.UNSUPPORTED;  // a write on a read-only opening (or a standby)
        }
        return ErrorReason.INTERNAL;
    }

    /** A failure while {@code doing} something other than reading a snapshot. */
    public static StorageException map(String doing, Throwable e) {
        if (e instanceof StorageException s) {
            return s;
        }
        String state = sqlState(e);
        if (isConnectionLost(state, e)) {
            // A pooled connection the server closed (stopped, restarted, or the backend terminated):
            // the next borrow opens a new one, or fails naming the address once the timeout passed [L3].
            return new StorageException(ErrorReason.TRANSIENT, doing + ": the connection to PostgreSQL was lost; the"
                    + " database may be unreachable or restarting (" + describe(e) + ")", e);
        }
        return new StorageException(reasonOf(state, e), doing + ": " + describe(e), e);
    }

    /**
     * Whether the server closed the session: a shutdown, a terminated backend, a broken socket, or one of the
     * server's idle or age limits (25P03, 25P04, 57P05), each of which ends the session.
     */
    static boolean isConnectionLost(String state, Throwable e) {
        boolean unreachable = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            unreachable |= t instanceof Pools.Unreachable;
        }
        return !unreachable && (state.equals("57P01") || state.equals("57P02") || state.equals("57P03")
                || state.equals("57P05") || endsTransactionByLimit(state)
                || state.equals("08003") || state.equals("08006"));
    }

    /** A failure of a snapshot's read: 40001 and 72000 are SnapshotExpired [P5]; the rest as {@link #map}. */
    public static StorageException mapSnapshot(String doing, Throwable e) {
        if (e instanceof StorageException s) {
            return s;
        }
        String state = sqlState(e);
        if (isSnapshotExpired(state)) {
            return new StorageException(ErrorReason.SNAPSHOT_EXPIRED, doing + ": the server discarded the snapshot ("
                    + describe(e) + "); open a new one", e);
        }
        return map(doing, e);
    }

    /** {@code condition_name (SQLSTATE xxxxx): message}, from the server's own reply when there is one. */
    public static String describe(Throwable e) {
        SQLException sql = null;
        for (Throwable t = e; t != null && sql == null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                sql = s;
            }
        }
        if (sql == null) {
            return DriverText.firstLine(e.getMessage());
        }
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        String message = sql.getMessage();
        if (sql instanceof PSQLException p) {
            ServerErrorMessage server = p.getServerErrorMessage();
            if (server != null && server.getMessage() != null) {
                message = server.getMessage();
            }
        }
        String name = NAMES.get(state);
        return (name == null ? "" : name + " ") + (state.isEmpty() ? "" : "(SQLSTATE " + state + "): ")
                + DriverText.firstLine(message);
    }
}

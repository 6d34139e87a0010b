package dev.stillpoint.adapters.sqlite.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Explicit SQLite transaction statements on an auto-commit connection. sqlite-jdbc's own
 * {@code setAutoCommit(false)} begins the next transaction right after each commit, which would keep
 * the writer's lock (or a reader's snapshot) held between units of work.
 */
final class TransactionStatements {

    private TransactionStatements() {
    }

    /** BEGIN IMMEDIATE: takes the write lock now, so the unit never fails upgrading a read lock. */
    static void beginWrite(Connection c) throws SQLException {
        exec(c, "BEGIN IMMEDIATE");
    }

    /** BEGIN DEFERRED: no lock yet; the first read pins the WAL snapshot [Q1]. */
    static void beginRead(Connection c) throws SQLException {
        exec(c, "BEGIN DEFERRED");
    }

    static void commit(Connection c) throws SQLException {
        exec(c, "COMMIT");
    }

    static void savepoint(Connection c, String name) throws SQLException {
        exec(c, "SAVEPOINT " + name);
    }

    static void rollbackTo(Connection c, String name) throws SQLException {
        exec(c, "ROLLBACK TO " + name);
    }

    /** Rolls back whatever is open; never throws, so it can run on every exit path. */
    static void rollbackQuietly(Connection c) {
        try {
            exec(c, "ROLLBACK");
        } catch (SQLException ignored) {
            // "no transaction is active", or the connection is gone: nothing to undo.
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}

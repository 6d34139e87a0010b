package dev.stillpoint.adapters.postgres.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Transactions on pooled pgjdbc connections. A transaction is the connection with auto-commit off
 * (pgjdbc sends BEGIN with the first statement, and HikariCP rolls back a connection returned dirty);
 * its end restores auto-commit, so a connection always goes back to the pool outside a transaction.
 */
final class TransactionStatements {

    /** The first statement of a snapshot's transaction: REPEATABLE READ, READ ONLY [P1, P2]. */
    static final String SNAPSHOT_CHARACTERISTICS = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

    private TransactionStatements() {
    }

    /** Begins a READ COMMITTED read-write transaction. */
    static void begin(Connection c) throws SQLException {
        c.setAutoCommit(false);
    }

    /**
     * Begins {@code BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY}: the transaction's snapshot is
     * taken by its first query (a LOCK TABLE does not take it).
     */
    static void beginSnapshot(Connection c) throws SQLException {
        c.setAutoCommit(false);
        exec(c, SNAPSHOT_CHARACTERISTICS);
    }

    static void commit(Connection c) throws SQLException {
        c.commit();
        c.setAutoCommit(true);
    }

    /** Rolls back whatever is open and restores auto-commit; never throws. */
    static void rollbackQuietly(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
        } catch (SQLException ignored) {
            // A broken connection: the pool evicts it on close.
        }
    }

    /** Ends whatever is open and gives the connection back; never throws. */
    static void release(Connection c) {
        if (c == null) {
            return;
        }
        rollbackQuietly(c);
        try {
            c.close();
        } catch (SQLException ignored) {
            // Already closed or broken.
        }
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}

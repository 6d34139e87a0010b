package dev.stillpoint.adapters.postgres.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Plain sessions outside every pool: readers and lock holders an operator or another client would be. */
public final class Sessions {

    private Sessions() {
    }

    /** A session in an open transaction that has read {@code relation} (so it holds ACCESS SHARE on it). */
    public static Connection reader(PgDatabases databases, Layout layout, String relation) throws SQLException {
        return holder(databases, layout, "SELECT count(*) FROM " + relation);
    }

    /** A session in an open transaction that ran {@code sql} (e.g. a LOCK TABLE in some mode). */
    public static Connection holder(PgDatabases databases, Layout layout, String sql) throws SQLException {
        Connection c = databases.dataSession(layout);
        try {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /** Ends the session's transaction and closes it. */
    public static void release(Connection c) throws SQLException {
        try {
            c.rollback();
        } finally {
            c.close();
        }
    }

    /** The data relations of a table id that exist on the data database of {@code layout}. */
    public static List<String> relationsOf(PgDatabases databases, Layout layout, String tableId) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = databases.dataSession(layout);
             PreparedStatement ps = c.prepareStatement(
                     "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE ? ORDER BY relname")) {
            ps.setString(1, "d\\_" + tableId + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** Waits until some session waits (not granted) for a lock on {@code relation}; false at the deadline. */
    public static boolean awaitWaiter(PgDatabases databases, Layout layout, String relation, Duration deadline)
            throws SQLException {
        long end = System.nanoTime() + deadline.toNanos();
        try (Connection c = databases.dataSession(layout);
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_locks l JOIN pg_class r ON r.oid = l.relation"
                     + " WHERE NOT l.granted AND r.relname = ?")) {
            ps.setString(1, relation);
            return awaitPositive(ps, end);
        }
    }

    /** Runs the count query {@code ps} every 5 ms until it counts something (true) or {@code end} passes (false). */
    public static boolean awaitPositive(PreparedStatement ps, long end) throws SQLException {
        while (System.nanoTime() - end < 0) {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    return true;
                }
            }
            Tables.pause(Duration.ofMillis(5));
        }
        return false;
    }
}

package dev.stillpoint.adapters.postgres.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/** Data relations whose table has no catalog row any more [P7, P9]. */
public final class Orphans {

    private Orphans() {
    }

    public static Set<String> find(PgDatabases databases, Layout layout) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = databases.catalogDatabase(layout).connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table_id FROM sp_tables")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        Set<String> orphans = new TreeSet<>();
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'd\\_%'")) {
            while (rs.next()) {
                String relation = rs.getString(1);
                String id = relation.substring(2).split("__")[0];
                if (!ids.contains(id)) {
                    orphans.add(relation);
                }
            }
        }
        return orphans;
    }
}

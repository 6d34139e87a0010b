package dev.stillpoint.adapters.sqlite.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The kit's count of an index's entries on SQLite: the relation the catalog names, counted straight. */
final class KitIndexEntries {

    private KitIndexEntries() {
    }

    static long count(Connection c, String accountId, String tableName, String indexName) throws SQLException {
        String relation;
        try (PreparedStatement q = c.prepareStatement("SELECT i.relation_name FROM sp_indexes i "
                + "JOIN sp_tables t ON t.table_id = i.table_id "
                + "WHERE t.account_id = ? AND t.table_name = ? AND i.index_name = ?")) {
            q.setString(1, accountId);
            q.setString(2, tableName);
            q.setString(3, indexName);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no index " + indexName + " of table " + tableName + " in the catalog");
                }
                relation = rs.getString(1);
            }
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + relation.replace("\"", "\"\"") + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

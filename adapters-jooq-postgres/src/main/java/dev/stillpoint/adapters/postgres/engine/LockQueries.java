package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.ports.out.RelationHold;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Who holds a lock on a table's data relations [P6, P10]. The same two steps serve DeleteTable's
 * probe, the {@code LockProbe} port and the operator's troubleshooting query:
 * <ol>
 *   <li>{@link #RELATIONS_OF_TABLE} on the catalog database: every relation of the table (base, GSI,
 *       LSI, vector index, and its change log relation, which exists only while the table keeps a log [I1]);</li>
 *   <li>{@link #HOLDERS_OF_RELATIONS} on the data database: every granted lock on any of them, by
 *       any session other than the asking one, with its mode.</li>
 * </ol>
 */
public final class LockQueries {

    /** Step 1 (catalog database): the table's relation names; parameters: account id and table name, four times. */
    public static final String RELATIONS_OF_TABLE = """
            SELECT t.relation_name FROM sp_tables t
             WHERE t.account_id = ? AND t.table_name = ?
            UNION ALL
            SELECT i.relation_name FROM sp_indexes i JOIN sp_tables t ON t.table_id = i.table_id
             WHERE t.account_id = ? AND t.table_name = ?
            UNION ALL
            SELECT v.relation_name FROM sp_vector_indexes v JOIN sp_tables t ON t.table_id = v.table_id
             WHERE t.account_id = ? AND t.table_name = ?
            UNION ALL
            SELECT 'd_' || t.table_id || '__chg__0' FROM sp_tables t
             WHERE t.account_id = ? AND t.table_name = ?""";

    /**
     * Step 2 (data database): every granted lock another session holds on any of the relations
     * named by the one parameter (a text array), with its mode and who holds it.
     */
    public static final String HOLDERS_OF_RELATIONS = """
            SELECT c.relname, l.mode, l.pid, coalesce(a.application_name, ''), coalesce(a.state, ''),
                   coalesce(a.backend_type, ''), a.xact_start
              FROM pg_locks l
              JOIN pg_class c ON c.oid = l.relation
              JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
              LEFT JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'relation'
               AND l.granted
               AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
               AND l.pid IS DISTINCT FROM pg_backend_pid()
               AND c.relname = ANY (?)
             ORDER BY c.relname, l.pid, l.mode""";

    private LockQueries() {
    }

    /** Step 2 on {@code data}, inside whatever transaction it is in (a probe runs in its drop's own). */
    static List<RelationHold> holders(Connection data, List<DataRelation> relations) throws SQLException {
        String[] names = relations.stream().map(DataRelation::name).toArray(String[]::new);
        List<RelationHold> out = new ArrayList<>();
        try (PreparedStatement ps = data.prepareStatement(HOLDERS_OF_RELATIONS)) {
            Array array = data.createArrayOf("text", names);
            ps.setArray(1, array);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String who = "pid " + rs.getInt(3)
                            + (rs.getString(4).isEmpty() ? "" : " (" + rs.getString(4) + ")")
                            + (rs.getString(6).isEmpty() ? "" : " " + rs.getString(6))
                            + (rs.getString(5).isEmpty() ? "" : ", " + rs.getString(5))
                            + (rs.getTimestamp(7) == null ? "" : ", transaction since " + rs.getTimestamp(7).toInstant());
                    out.add(new RelationHold(rs.getString(1), rs.getString(2), who));
                }
            }
        }
        return out;
    }
}

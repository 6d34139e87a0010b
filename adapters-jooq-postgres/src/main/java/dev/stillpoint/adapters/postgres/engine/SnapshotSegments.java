package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SegmentSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * A pinned snapshot cut into segments [B2], as {@code pg_dump -j} shares one instant: the pinned data
 * transaction exports its snapshot ({@code pg_export_snapshot()}), and each further segment's connection
 * begins a REPEATABLE READ READ ONLY transaction whose first statement is {@code SET TRANSACTION
 * SNAPSHOT} of it, then takes ACCESS SHARE on the base relation (so every segment is a reader DeleteTable's
 * probe sees, whichever segment ends first). Segment 0 stays on the pinned connection.
 *
 * <p>Key ranges come from the keys at the instant: every key of a small base relation (at most
 * {@value #SAMPLE_PAGES} pages), else a {@code TABLESAMPLE SYSTEM} of about that many pages, in key
 * order, cut at its quantiles (so a partition holding most items is cut inside, by sort key). Segment i
 * is {@code key >= b(i) AND key < b(i+1)}, the first without a lower bound, the last without an upper:
 * the union is every key whatever the boundaries are, and a boundary only decides the balance. The
 * boundaries are literals the server formats from the keys it read ({@code format('%L::%s')}), never
 * text of ours.
 */
final class SnapshotSegments {

    /** Pages of the base relation read whole for the boundaries, or sampled above this. */
    static final int SAMPLE_PAGES = 128;

    private static final DSLContext RENDER = DSL.using(SQLDialect.POSTGRES);

    private SnapshotSegments() {
    }

    /**
     * Cuts the pinned read on {@code data} into {@code count} segments; on a failure every connection
     * borrowed here is given back and {@code data} is left to the caller.
     */
    static SegmentSources cut(Pools pools, Connection data, RelationLayout base, List<ScalarType> keyTypes,
                              String tableName, ReadObserver observer, int count) {
        String table = RENDER.render(base.relation().table());
        List<String> keys = base.keyColumns().stream().map(RENDER::render).toList();
        List<Connection> others = new ArrayList<>();
        try {
            String snapshotId = one(data, "SELECT pg_export_snapshot()");
            List<List<String>> bounds = boundaries(data, base, table, keys, count);
            for (int i = 1; i < count; i++) {
                Connection c = pools.data();
                others.add(c);
                TransactionStatements.beginSnapshot(c);
                // The transaction's first statement after its characteristics: the instant of the pinned read.
                TransactionStatements.exec(c, "SET TRANSACTION SNAPSHOT '" + snapshotId.replace("'", "''") + "'");
                TransactionStatements.exec(c, "LOCK TABLE " + table + " IN ACCESS SHARE MODE");
            }
            List<PageSource> sources = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Connection c = i == 0 ? data : others.get(i - 1);
                // The item, then the key columns where the items carry their stored key [E1].
                String query = "SELECT " + RENDER.render(base.item()) + (keyTypes.isEmpty() ? "" : ", " + String.join(", ", keys))
                        + " FROM " + table
                        + where(keys, i == 0 ? null : bounds.get(i - 1), i == count - 1 ? null : bounds.get(i), i > 0)
                        + " ORDER BY " + String.join(", ", keys);
                sources.add(new CursorPages(pools::closedOr, c, query, keyTypes, tableName, observer));
            }
            return new SegmentSources(sources, SegmentSources.NOTHING_SHARED);
        } catch (SQLException | RuntimeException e) {
            others.forEach(TransactionStatements::release);
            if (e instanceof StorageException se) {
                throw se;
            }
            throw PgFailures.mapSnapshot("cutting the snapshot of '" + tableName + "' into " + count + " segments", e);
        }
    }

    /**
     * The WHERE clause of a segment: at or above {@code lower}, below {@code upper}; a missing lower bound
     * of a segment after the first means the keys ran out before it (an empty table): it is empty.
     */
    static String where(List<String> keys, List<String> lower, List<String> upper, boolean hasLower) {
        String row = "(" + String.join(", ", keys) + ")";
        List<String> conditions = new ArrayList<>();
        if (hasLower) {
            if (lower == null) {
                return " WHERE false";
            }
            conditions.add(row + " >= (" + String.join(", ", lower) + ")");
        }
        if (upper != null) {
            conditions.add(row + " < (" + String.join(", ", upper) + ")");
        }
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /**
     * The {@code count - 1} boundaries between the segments, each a key as SQL literals, lowest first; null
     * where the relation had too few keys to place one (every segment from there on is empty).
     */
    private static List<List<String>> boundaries(Connection data, RelationLayout base, String table, List<String> keys,
                                                 int count) throws SQLException {
        long pages;
        try (PreparedStatement ps = data.prepareStatement("SELECT pg_relation_size(to_regclass(quote_ident(?)))"
                + " / current_setting('block_size')::bigint")) {
            ps.setString(1, base.relation().name());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                pages = rs.getLong(1);
            }
        }
        String sample = pages <= SAMPLE_PAGES ? "" : String.format(Locale.ROOT, " TABLESAMPLE SYSTEM (%.6f)",
                100.0 * SAMPLE_PAGES / pages);
        String literals = keys.stream().map(k -> "format('%L::%s', " + k + ", pg_typeof(" + k + "))")
                .collect(Collectors.joining(", "));
        List<List<String>> sampled = new ArrayList<>();
        try (Statement s = data.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + literals + " FROM " + table + sample + " ORDER BY "
                     + String.join(", ", keys))) {
            while (rs.next()) {
                List<String> key = new ArrayList<>(keys.size());
                for (int c = 1; c <= keys.size(); c++) {
                    key.add(rs.getString(c));
                }
                sampled.add(key);
            }
        }
        List<List<String>> out = new ArrayList<>(count - 1);
        for (int i = 1; i < count; i++) {
            out.add(sampled.isEmpty() ? null : sampled.get((int) ((long) i * sampled.size() / count)));
        }
        return out;
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}

package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.ChangeLogTrim;
import dev.stillpoint.sqlcatalog.ChangeRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The change logs' trim on PostgreSQL [I4], both layouts, one data transaction per table. A MARK row records
 * the pass's instant and {@code pg_current_snapshot()}; the log is then cut at its newest MARK no later than
 * {@code now - retention}: the changes visible in that MARK's snapshot are deleted, older MARKs and the START
 * go, and that MARK becomes the START. A marker whose snapshot does not see the START's xid is refused by
 * {@link PgChangeLog}; one that sees it was taken after that transaction committed, so it also sees every
 * change the cut deleted (each committed before the MARK's snapshot was taken): no window loses a change.
 */
public final class PgChangeLogTrim implements ChangeLogTrim {

    private static final Logger LOG = LoggerFactory.getLogger(PgChangeLogTrim.class);

    private final Transactions tx;

    public PgChangeLogTrim(Transactions tx) {
        this.tx = tx;
    }

    @Override
    public void trim(Instant now, Duration retention) {
        List<ChangeRelation> logs = tx.read("listing the change logs to trim", ctx -> ctx
                .select(SP_TABLES.TABLE_ID, SP_TABLES.PARTITION_KEY_TYPE, SP_TABLES.SORT_KEY_TYPE, SP_TABLES.STREAM_SPEC_JSON)
                .from(SP_TABLES).where(SP_TABLES.STATUS.ne(TableStatus.DELETING.name()))
                .fetch().stream()
                .filter(r -> CatalogJson.changeLog(r.value4()).enabled())
                .map(r -> ChangeRelation.of(r.value1(), ScalarType.valueOf(r.value2()),
                        Optional.ofNullable(r.value3()).map(ScalarType::valueOf)))
                .toList());
        long cutoff = now.minus(retention).toEpochMilli();
        for (ChangeRelation log : logs) {
            try (Connection data = tx.pools().data()) {
                trim(data, log, now.toEpochMilli(), cutoff);
            } catch (SQLException | RuntimeException e) {
                // A table dropped meanwhile (42P01) or a lock: the next pass tries again.
                LOG.warn("change log trim of {}: {}", log.relation().name(), PgFailures.describe(e));
            }
        }
    }

    /** Marks {@code log} at {@code nowMillis} and cuts it at its newest MARK at or before {@code cutoffMillis}. */
    static void trim(Connection data, ChangeRelation log, long nowMillis, long cutoffMillis) throws SQLException {
        String chg = log.quoted();
        TransactionStatements.begin(data);
        try {
            update(data, "INSERT INTO " + chg + " (kind, at_millis, snap) VALUES ('" + ChangeRows.MARK
                    + "', ?, pg_current_snapshot())", nowMillis);
            Long seq = null;
            long at = 0;
            String snap = null;
            try (PreparedStatement s = data.prepareStatement("SELECT seq, at_millis, snap::text FROM " + chg
                    + " WHERE kind = '" + ChangeRows.MARK + "' AND at_millis <= ? ORDER BY at_millis DESC, seq DESC"
                    + " LIMIT 1")) {
                s.setLong(1, cutoffMillis);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        seq = rs.getLong(1);
                        at = rs.getLong(2);
                        snap = rs.getString(3);
                    }
                }
            }
            if (seq != null) {
                update(data, "DELETE FROM " + chg + " WHERE kind IN ('" + ChangeRows.PUT + "', '"
                        + ChangeRows.DELETE + "') AND pg_visible_in_snapshot(xid, ?::pg_snapshot)", snap);
                update(data, "DELETE FROM " + chg + " WHERE kind = '" + ChangeRows.START + "' OR (kind = '"
                        + ChangeRows.MARK + "' AND (at_millis < ? OR (at_millis = ? AND seq < ?)))", at, at, seq);
                update(data, "UPDATE " + chg + " SET kind = '" + ChangeRows.START + "' WHERE seq = ?", seq);
            }
            TransactionStatements.commit(data);
        } finally {
            TransactionStatements.rollbackQuietly(data);
        }
    }

    private static void update(Connection c, String sql, Object... values) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                s.setObject(i + 1, values[i]);
            }
            s.executeUpdate();
        }
    }
}

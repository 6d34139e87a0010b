package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.ports.out.CatalogStamp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements sent to PostgreSQL in one round trip: pgjdbc runs a prepared statement holding several
 * statements (separated by semicolons) as one message sequence closed by one Sync, and the server runs
 * each message after the one before, so a row lock the first statement takes is held before the next
 * statement's relations are locked, as when they are sent one by one. Stamp reads or requirements come
 * first; the first failure ends the sequence, is thrown by {@link #run}, and leaves nothing of it: on an
 * auto-commit connection the sequence is one implicit transaction, committed at its Sync only if every
 * statement succeeded (PostgreSQL's extended query protocol); in an open transaction, that transaction
 * has failed.
 */
final class Pipeline {

    private final StringBuilder sql = new StringBuilder(1024);
    private final List<Object> values = new ArrayList<>();
    private int stamps;
    private int required;
    private int statements;

    /** Reads the stamp of {@code accountId}'s table {@code tableName}, its row held FOR KEY SHARE; before any write. */
    void stamp(String accountId, String tableName) {
        if (statements > stamps) {
            throw new IllegalStateException("a stamp read after another statement");
        }
        add(WriteStatements.STAMP, List.of(accountId, tableName));
        stamps++;
    }

    /**
     * Requires the row of {@code accountId}'s table {@code tableName} to have {@code stamp}, holding it
     * FOR KEY SHARE, else fails the pipeline there (SQLSTATE 22012); before any write.
     */
    void require(String accountId, String tableName, CatalogStamp stamp) {
        if (statements > required) {
            throw new IllegalStateException("a stamp required after another statement");
        }
        add(WriteStatements.REQUIRE_STAMP, List.of(accountId, tableName, stamp.tableId(), stamp.catalogVersion()));
        required++;
    }

    /** Adds {@code statement}, its {@code ?} bound to {@code parameters} in order (strings, numerics, bytes). */
    void add(String statement, List<Object> parameters) {
        if (statements > 0) {
            sql.append(";\n");
        }
        sql.append(statement);
        values.addAll(parameters);
        statements++;
    }

    /** Runs every statement on {@code c}; answers the stamps read, in order, null where no such table is. */
    List<CatalogStamp> run(Connection c) throws SQLException {
        if (statements == 0) {
            return List.of();
        }
        try (PreparedStatement s = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < values.size(); i++) {
                s.setObject(i + 1, values.get(i));
            }
            // pgjdbc has read every statement's reply (or thrown the first failure) when execute returns.
            boolean rows = s.execute();
            List<CatalogStamp> read = new ArrayList<>(stamps);
            for (int i = 0; i < stamps; i++) {
                if (!rows) {
                    throw new SQLException("a stamp read answered no rows", "XX000");
                }
                try (ResultSet rs = s.getResultSet()) {
                    read.add(rs.next() ? new CatalogStamp(rs.getString(1), rs.getLong(2)) : null);
                }
                rows = s.getMoreResults();
            }
            return read;
        }
    }
}

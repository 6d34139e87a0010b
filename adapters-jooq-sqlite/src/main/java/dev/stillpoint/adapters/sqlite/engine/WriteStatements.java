package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_COMMIT_SEQUENCE;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The item-write statements of the writer connection, rendered by jOOQ once per relation and kept
 * prepared: a put otherwise paid jOOQ's rendering and SQLite's prepare for each of its five statements,
 * the largest cost after the database's own work in the put profile (BENCHMARKS.md, issue 13).
 *
 * <p>Only the writer connection's owner may use it, under the writer lock. Every statement is reset
 * after it runs (a query's result set is closed before returning), so none holds a lock or blocks a DROP
 * of its relation; a statement over a dropped relation is never run again (its table id is gone) and
 * leaves the cache by age.
 */
final class WriteStatements {

    /** Enough for the relations of many tables; the oldest statement is closed beyond it. */
    private static final int CAPACITY = 256;
    private static final DSLContext RENDER = DSL.using(SQLDialect.SQLITE);
    private static final String BEGIN = "BEGIN IMMEDIATE";
    private static final String COMMIT = "COMMIT";
    private static final String STAMP = RENDER.render(RENDER.select(SP_TABLES.TABLE_ID, SP_TABLES.CATALOG_VERSION)
            .from(SP_TABLES).where(SP_TABLES.ACCOUNT_ID.eq((String) null), SP_TABLES.TABLE_NAME.eq((String) null)));
    private static final String ADVANCE = RENDER.render(RENDER.update(SP_COMMIT_SEQUENCE)
            .set(SP_COMMIT_SEQUENCE.SEQ, SP_COMMIT_SEQUENCE.SEQ.plus(DSL.inline(1L))));

    /** A table's identity and catalog version as its row holds them now. */
    record Stamp(String tableId, long catalogVersion) {
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> prepared = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= CAPACITY) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    WriteStatements(Connection connection) {
        this.connection = connection;
    }

    /** Whether these statements belong to {@code c}. */
    boolean of(Connection c) {
        return connection == c;
    }

    void begin() throws SQLException {
        statement(BEGIN).execute();
    }

    void commit() throws SQLException {
        statement(COMMIT).execute();
    }

    /** Advances the commit sequence [L5]; inside the write transaction, just before COMMIT. */
    void advanceSequence() throws SQLException {
        statement(ADVANCE).executeUpdate();
    }

    /** The table's row stamp, or null when the account has no table of that name. */
    Stamp stamp(String accountId, String tableName) throws SQLException {
        PreparedStatement s = statement(STAMP);
        s.setString(1, accountId);
        s.setString(2, tableName);
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? new Stamp(rs.getString(1), rs.getLong(2)) : null;
        }
    }

    /** Inserts or replaces the item under its key in the base relation. */
    void upsertItem(DataRelation base, ItemKeys key, String json) throws SQLException {
        PreparedStatement s = statement(base, "upsert", () -> RENDER.insertInto(base.table())
                .columns(base.pk(), base.sk(), base.item()).values((byte[]) null, null, null)
                .onConflict(base.pk(), base.sk()).doUpdate().set(base.item(), DSL.excluded(base.item())));
        s.setBytes(1, key.pk());
        s.setBytes(2, key.sk());
        s.setString(3, json);
        s.executeUpdate();
    }

    /** Deletes the item under its key from the base relation. */
    void deleteItem(DataRelation base, ItemKeys key) throws SQLException {
        PreparedStatement s = statement(base, "delete", () -> RENDER.deleteFrom(base.table())
                .where(base.pk().eq((byte[]) null), base.sk().eq((byte[]) null)));
        s.setBytes(1, key.pk());
        s.setBytes(2, key.sk());
        s.executeUpdate();
    }

    /** Inserts one index entry of the base item under {@code base}. */
    void insertEntry(DataRelation index, ItemKeys entry, ItemKeys base, String json) throws SQLException {
        PreparedStatement s = statement(index, "entry", () -> RENDER.insertInto(index.table())
                .columns(index.pk(), index.sk(), index.basePk().orElseThrow(), index.baseSk().orElseThrow(), index.item())
                .values((byte[]) null, null, null, null, null));
        s.setBytes(1, entry.pk());
        s.setBytes(2, entry.sk());
        s.setBytes(3, base.pk());
        s.setBytes(4, base.sk());
        s.setString(5, json);
        s.executeUpdate();
    }

    /** Deletes every entry of the index that belongs to the base item under {@code base}. */
    void deleteEntries(DataRelation index, ItemKeys base) throws SQLException {
        PreparedStatement s = statement(index, "entries", () -> RENDER.deleteFrom(index.table())
                .where(index.basePk().orElseThrow().eq((byte[]) null), index.baseSk().orElseThrow().eq((byte[]) null)));
        s.setBytes(1, base.pk());
        s.setBytes(2, base.sk());
        s.executeUpdate();
    }

    /** Closes every statement kept; the connection stays open. */
    void close() {
        prepared.values().forEach(WriteStatements::closeQuietly);
        prepared.clear();
    }

    private PreparedStatement statement(DataRelation relation, String what, java.util.function.Supplier<Query> query)
            throws SQLException {
        String cacheKey = relation.name() + ' ' + what;
        PreparedStatement s = prepared.get(cacheKey);
        if (s == null) {
            s = connection.prepareStatement(RENDER.render(query.get()));
            prepared.put(cacheKey, s);
        }
        return s;
    }

    private PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement s = prepared.get(sql);
        if (s == null) {
            s = connection.prepareStatement(sql);
            prepared.put(sql, s);
        }
        return s;
    }

    private static void closeQuietly(PreparedStatement s) {
        try {
            s.close();
        } catch (SQLException ignored) {
            // Closing a cached statement: the connection's own close finalizes it anyway.
        }
    }
}

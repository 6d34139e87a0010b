package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_COMMIT_SEQUENCE;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.ports.out.CatalogStamp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The write statements of the writer connection, rendered by jOOQ once and kept prepared: BEGIN, COMMIT
 * and the commit sequence's advance for every write transaction, the stamp read and two statements per
 * data relation for item writes (three for a base relation: the old image's read [I1]), and a change
 * relation's insert. A put otherwise paid jOOQ's rendering and SQLite's prepare for each of
 * its statements, the largest cost after the database's own work in the put profile (BENCHMARKS.md,
 * issue 13).
 *
 * <p>Only the writer connection's owner may use it, under the writer lock. Every statement is reset
 * after it runs (a query's result set is closed before returning), so none holds a lock or blocks a DROP
 * of its relation; a statement over a dropped relation is never run again (its table id is gone) and
 * leaves the cache by age. The statements end with the writer connection, which finalizes them, or
 * after a write the driver failed ({@link #close}, from {@code SqliteCatalog}): sqlite-jdbc finalizes a
 * statement whose step failed, so none is trusted again.
 */
final class WriteStatements {

    /** Enough for the relations of many tables; the oldest relation's statements are closed beyond it. */
    static final int CAPACITY = 256;
    private static final DSLContext RENDER = DSL.using(SQLDialect.SQLITE);
    private static final String BEGIN = "BEGIN IMMEDIATE";
    private static final String COMMIT = "COMMIT";
    private static final String STAMP = RENDER.render(RENDER.select(SP_TABLES.TABLE_ID, SP_TABLES.CATALOG_VERSION)
            .from(SP_TABLES).where(SP_TABLES.ACCOUNT_ID.eq((String) null), SP_TABLES.TABLE_NAME.eq((String) null)));
    private static final String ADVANCE = RENDER.render(RENDER.update(SP_COMMIT_SEQUENCE)
            .set(SP_COMMIT_SEQUENCE.SEQ, SP_COMMIT_SEQUENCE.SEQ.plus(DSL.inline(1L))));

    private final Connection connection;
    private final int capacity;
    /** Begin, commit, stamp and advance: the same four for every table. */
    private final Map<String, PreparedStatement> fixed = new HashMap<>();
    /** By relation name, most recently used last; the oldest closed beyond {@code capacity} relations. */
    private final Map<String, RelationStatements> relations = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RelationStatements> eldest) {
            if (size() <= capacity) {
                return false;
            }
            eldest.getValue().close();
            return true;
        }
    };

    WriteStatements(Connection connection, int capacity) {
        this.connection = connection;
        this.capacity = capacity;
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
    CatalogStamp stamp(String accountId, String tableName) throws SQLException {
        PreparedStatement s = statement(STAMP);
        s.setString(1, accountId);
        s.setString(2, tableName);
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? new CatalogStamp(rs.getString(1), rs.getLong(2)) : null;
        }
    }

    /** Inserts or replaces the item under its key in the base relation named {@code base}. */
    void upsertItem(String base, ItemKeys key, String json) throws SQLException {
        PreparedStatement s = of(base).upsert();
        s.setBytes(1, key.pk());
        s.setBytes(2, key.sk());
        s.setString(3, json);
        s.executeUpdate();
    }

    /** Inserts one entry, into the index relation named {@code index}, of the base item under {@code base}. */
    void insertEntry(String index, ItemKeys entry, ItemKeys base, String json) throws SQLException {
        PreparedStatement s = of(index).upsert();
        s.setBytes(1, entry.pk());
        s.setBytes(2, entry.sk());
        s.setBytes(3, base.pk());
        s.setBytes(4, base.sk());
        s.setString(5, json);
        s.executeUpdate();
    }

    /**
     * Deletes what belongs to the base item under {@code base} from the relation named {@code relation}:
     * from a base relation the item itself, from an index relation every entry of the item.
     *
     * @return how many rows went (a base relation: 1 when an item was there, else 0)
     */
    int delete(String relation, ItemKeys base) throws SQLException {
        PreparedStatement s = of(relation).delete();
        s.setBytes(1, base.pk());
        s.setBytes(2, base.sk());
        return s.executeUpdate();
    }

    /**
     * The item under {@code key} in the base relation named {@code base}, as stored, or null: the old image
     * a change log of NEW_AND_OLD_IMAGES records [I1], read in the write's own transaction.
     */
    String readItem(String base, ItemKeys key) throws SQLException {
        PreparedStatement s = of(base).read();
        s.setBytes(1, key.pk());
        s.setBytes(2, key.sk());
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /**
     * Appends one change to {@code changes} [I1], under the commit sequence this transaction commits as: the
     * sequence read now plus one, which the one advance before COMMIT makes true (one writer at a time).
     */
    void logChange(ChangeRelation changes, String kind, ItemKeys key, String keyJson, String newImage,
                   String oldImage) throws SQLException {
        RelationStatements kept = relations.get(changes.name());
        if (kept == null) {
            Query insert = RENDER.insertInto(changes.table()).columns(changes.fields())
                    .select(RENDER.select(SP_COMMIT_SEQUENCE.SEQ.plus(DSL.inline(1L)), DSL.val((String) null),
                            DSL.val((byte[]) null), DSL.val((byte[]) null), DSL.val((String) null),
                            DSL.val((String) null), DSL.val((String) null)).from(SP_COMMIT_SEQUENCE));
            kept = new RelationStatements(connection.prepareStatement(RENDER.render(insert)), null, null);
            relations.put(changes.name(), kept);
        }
        PreparedStatement s = kept.upsert();
        s.setString(1, kind);
        s.setBytes(2, key.pk());
        s.setBytes(3, key.sk());
        s.setString(4, keyJson);
        s.setString(5, newImage);
        s.setString(6, oldImage);
        s.executeUpdate();
    }

    /**
     * The statements of one relation: for a base relation the item's upsert, delete and read by key, for an
     * index relation the entry's insert and the delete of a base item's entries, for a change relation the
     * insert of one change.
     */
    private record RelationStatements(PreparedStatement upsert, PreparedStatement delete, PreparedStatement read) {
        void close() {
            closeQuietly(upsert);
            closeQuietly(delete);
            closeQuietly(read);
        }
    }

    /** Closes every kept statement, leaving the connection open. */
    void close() {
        fixed.values().forEach(WriteStatements::closeQuietly);
        fixed.clear();
        relations.values().forEach(RelationStatements::close);
        relations.clear();
    }

    /** How many relations have statements kept now (at most the capacity). */
    int relationsKept() {
        return relations.size();
    }

    private RelationStatements of(String relationName) throws SQLException {
        RelationStatements kept = relations.get(relationName);
        if (kept == null) {
            // The name is checked here, once per relation: a damaged catalog row never reaches SQL [R1].
            DataRelation r = DataRelation.fromCatalog(relationName);
            Query upsert;
            Query delete;
            Query read = null;
            if (r.kind() == RelationName.Kind.BASE) {
                read = RENDER.select(r.item()).from(r.table()).where(r.pk().eq((byte[]) null), r.sk().eq((byte[]) null));
                upsert = RENDER.insertInto(r.table()).columns(r.pk(), r.sk(), r.item()).values((byte[]) null, null, null)
                        .onConflict(r.pk(), r.sk()).doUpdate().set(r.item(), DSL.excluded(r.item()));
                delete = RENDER.deleteFrom(r.table()).where(r.pk().eq((byte[]) null), r.sk().eq((byte[]) null));
            } else {
                upsert = RENDER.insertInto(r.table())
                        .columns(r.pk(), r.sk(), r.basePk().orElseThrow(), r.baseSk().orElseThrow(), r.item())
                        .values((byte[]) null, null, null, null, null);
                delete = RENDER.deleteFrom(r.table())
                        .where(r.basePk().orElseThrow().eq((byte[]) null), r.baseSk().orElseThrow().eq((byte[]) null));
            }
            PreparedStatement first = connection.prepareStatement(RENDER.render(upsert));
            PreparedStatement second = null;
            try {
                second = connection.prepareStatement(RENDER.render(delete));
                kept = new RelationStatements(first, second,
                        read == null ? null : connection.prepareStatement(RENDER.render(read)));
            } catch (SQLException e) {
                closeQuietly(first);
                closeQuietly(second);
                throw e;
            }
            relations.put(relationName, kept);
        }
        return kept;
    }

    private PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement s = fixed.get(sql);
        if (s == null) {
            s = connection.prepareStatement(sql);
            fixed.put(sql, s);
        }
        return s;
    }

    private static void closeQuietly(PreparedStatement s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (SQLException ignored) {
            // Closing a kept statement: the connection's own close finalizes it anyway.
        }
    }
}

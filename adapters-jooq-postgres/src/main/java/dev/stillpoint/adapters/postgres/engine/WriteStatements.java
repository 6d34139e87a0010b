package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.sqlcatalog.ChangeRows;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The text of the item-write statements, rendered by jOOQ once: the stamp read and the stamp requirement
 * of a table's row, each FOR KEY SHARE, and two statements per data relation (a base relation's upsert and delete by key, an index
 * relation's entry insert and the delete of a base item's entries). A put otherwise paid jOOQ's rendering
 * of each of its statements (BENCHMARKS.md, issue 13). pgjdbc keeps each connection's statements prepared
 * at the server by their text (after {@code prepareThreshold} runs); a prepared statement holds no lock,
 * so none blocks a DROP of its relation.
 *
 * <p>Kept by relation name, at most {@link #CAPACITY} relations, the least recently written one dropped
 * beyond: a name is one table's for its whole life (its table id is random and never reused) and fixes
 * the relation's columns, so the text made for it stays right; a dropped relation's text is never used
 * again and leaves by age. A name reaches SQL only through {@code CatalogRows.Loaded}, which checks it.
 */
final class WriteStatements {

    /** Enough for the relations of many tables. */
    static final int CAPACITY = 512;
    private static final DSLContext RENDER = DSL.using(SQLDialect.POSTGRES);

    /** {@code (table_id, catalog_version)} of an account's table, its row held FOR KEY SHARE. */
    static final String STAMP = RENDER.render(RENDER.select(SP_TABLES.TABLE_ID, SP_TABLES.CATALOG_VERSION).from(SP_TABLES)
            .where(SP_TABLES.ACCOUNT_ID.eq((String) null), SP_TABLES.TABLE_NAME.eq((String) null)).forKeyShare());

    /**
     * Fails unless an account's table's row has the given {@code (table_id, catalog_version)}, holding the
     * row FOR KEY SHARE when it has: one over a count of nothing is PostgreSQL's division by zero (22012).
     * A statement of its own, so its failure ends the {@link Pipeline} before any write of it runs; no
     * constant folding can raise it early, as the count is only known once the row is read and locked
     * (re-read after any lock wait, so a change committed meanwhile fails it).
     */
    static final String REQUIRE_STAMP = RENDER.render(RENDER.select(DSL.inline(1).div(DSL.count()))
            .from(RENDER.selectOne().from(SP_TABLES).where(SP_TABLES.ACCOUNT_ID.eq((String) null),
                    SP_TABLES.TABLE_NAME.eq((String) null), SP_TABLES.TABLE_ID.eq((String) null),
                    SP_TABLES.CATALOG_VERSION.eq((Long) null)).forKeyShare().asTable("held")));

    /**
     * One relation's two statements: for a base relation the item's upsert ({@code pk[, sk], item}) and
     * its delete by key; for an index relation the entry's insert ({@code pk[, sk], base_pk[, base_sk], item})
     * and the delete of a base item's entries by {@code base_pk[, base_sk]}.
     */
    record RelationStatements(String write, String delete) {
    }

    private final int capacity;
    /** By relation name, most recently used last. */
    private final Map<String, RelationStatements> relations = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RelationStatements> eldest) {
            return size() > capacity;
        }
    };

    /** By change relation name and setting, most recently used last; bounded as {@link #relations}. */
    private final Map<String, ChangeStatements> changeStatements = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ChangeStatements> eldest) {
            return size() > capacity;
        }
    };

    WriteStatements(int capacity) {
        this.capacity = capacity;
    }

    /** The statements of {@code loaded}'s base relation. */
    RelationStatements base(CatalogRows.Loaded loaded) {
        return of(loaded.row().relationName(), () -> {
            RelationLayout base = loaded.base();
            return new RelationStatements(RENDER.render(RENDER.insertInto(base.relation().table())
                            .columns(columns(base.keyColumns(), List.of(), base.item()))
                            .values(placeholders(base.keyColumns().size() + 1))
                            .onConflict(base.keyColumns()).doUpdate().set(base.item(), DSL.excluded(base.item()))),
                    deleteBy(base, base.keyColumns()));
        });
    }

    /** The statements of the relation of {@code index}, one of {@code loaded}'s GSIs or LSIs. */
    RelationStatements index(CatalogRows.Loaded loaded, IndexRow index) {
        return of(index.relationName(), () -> {
            RelationLayout layout = loaded.index(index);
            List<Field<?>> columns = columns(layout.keyColumns(), layout.baseKeyColumns(), layout.item());
            return new RelationStatements(RENDER.render(RENDER.insertInto(layout.relation().table()).columns(columns)
                    .values(placeholders(columns.size()))), deleteBy(layout, layout.baseKeyColumns()));
        });
    }

    /**
     * The change log's statements [I1] of {@code loaded}'s table, which keeps a log ({@code changes}):
     * <ul>
     * <li>{@code put}: NEW_IMAGE: the change's insert, after the item's upsert has taken the item's row (so
     *     its {@code seq} follows every earlier write of the key). NEW_AND_OLD_IMAGES: the lock-first
     *     upsert: inserts the item, or on a conflict rewrites the row with its own item, taking the row
     *     and answering it as it was, and logs the change with that old image; the ordinary upsert runs
     *     next. A plain read of the old item could miss a concurrent insert of the key committed after
     *     the statement's snapshot, which ON CONFLICT waits for and sees.</li>
     * <li>{@code delete}: the item's delete and, only when it removed a row, the tombstone (with the old
     *     image for NEW_AND_OLD_IMAGES), in one statement.</li>
     * </ul>
     */
    record ChangeStatements(String put, String delete) {
    }

    /** The change log's statements of {@code loaded}'s table for its setting; cached beside the relations'. */
    ChangeStatements changes(CatalogRows.Loaded loaded, ChangeRelation changes, boolean oldImages) {
        String key = changes.relation().name() + (oldImages ? "#old" : "#new");
        synchronized (this) {
            ChangeStatements kept = changeStatements.get(key);
            if (kept != null) {
                return kept;
            }
        }
        String base = ChangeRelation.quote(loaded.row().relationName());
        String chg = changes.quoted();
        String keys = changes.keyColumns();
        String marks = changes.keyPlaceholders();
        String put = oldImages
                ? "WITH up AS (INSERT INTO " + base + " AS b (" + keys + ", item) VALUES (" + marks + ", ?)"
                        + " ON CONFLICT (" + keys + ") DO UPDATE SET item = b.item"
                        // xmax is 0 on a row this statement inserted, the locker's xid on one it rewrote.
                        + " RETURNING b.xmax::text <> '0' AS existed, b.item AS before)"
                        + " INSERT INTO " + chg + " (kind, " + keys + ", key_json, new_image, old_image)"
                        + " SELECT '" + ChangeRows.PUT + "', " + marks + ", ?, ?,"
                        + " CASE WHEN up.existed THEN up.before END FROM up"
                : "INSERT INTO " + chg + " (kind, " + keys + ", key_json, new_image) VALUES ('"
                        + ChangeRows.PUT + "', " + marks + ", ?, ?)";
        String delete = "WITH d AS (DELETE FROM " + base + " WHERE " + ChangeRelation.keyMatch("", changes.sortKey())
                + " RETURNING item) INSERT INTO " + chg + " (kind, " + keys + ", key_json, old_image)"
                + " SELECT '" + ChangeRows.DELETE + "', " + marks + ", ?, " + (oldImages ? "d.item" : "NULL")
                + " FROM d";
        ChangeStatements made = new ChangeStatements(put, delete);
        synchronized (this) {
            changeStatements.put(key, made);
        }
        return made;
    }

    /** How many relations have statements kept now (at most the capacity). */
    synchronized int relationsKept() {
        return relations.size();
    }

    private RelationStatements of(String relationName, Supplier<RelationStatements> render) {
        synchronized (this) {
            RelationStatements kept = relations.get(relationName);
            if (kept != null) {
                return kept;
            }
        }
        // Rendered outside the lock: two writers may render one relation's text at once, to the same result.
        RelationStatements made = render.get();
        synchronized (this) {
            relations.put(relationName, made);
        }
        return made;
    }

    private static String deleteBy(RelationLayout layout, List<Field<Object>> columns) {
        return RENDER.render(RENDER.deleteFrom(layout.relation().table())
                .where(columns.stream().map(c -> c.eq(DSL.val(null, c))).toList()));
    }

    private static List<Field<?>> columns(List<Field<Object>> keys, List<Field<Object>> baseKeys, Field<String> item) {
        List<Field<?>> out = new ArrayList<>(keys);
        out.addAll(baseKeys);
        out.add(item);
        return out;
    }

    private static List<Object> placeholders(int n) {
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(null);
        }
        return out;
    }
}

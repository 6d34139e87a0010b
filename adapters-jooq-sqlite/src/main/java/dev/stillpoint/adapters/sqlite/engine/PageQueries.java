package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import java.sql.Statement;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * The snapshot's page queries, built once per stream with jOOQ from the template's typed fields
 * and run as prepared statements with bind values only (no user text enters the SQL).
 */
final class PageQueries {

    private static final DSLContext RENDER = DSL.using(SQLDialect.SQLITE);
    private static final Field<Long> ROWID = DSL.field(DSL.name("rowid"), Long.class);

    private PageQueries() {
    }

    static String firstKeysetPage(DataRelation base) {
        return RENDER.select(base.pk(), base.sk(), base.item()).from(base.table())
                .orderBy(base.pk(), base.sk())
                .limit(DSL.param("rows", Integer.class))
                .getSQL(ParamType.INDEXED);
    }

    static String nextKeysetPage(DataRelation base) {
        return RENDER.select(base.pk(), base.sk(), base.item()).from(base.table())
                .where(DSL.row(base.pk(), base.sk()).gt(DSL.param("pk", byte[].class), DSL.param("sk", byte[].class)))
                .orderBy(base.pk(), base.sk())
                .limit(DSL.param("rows", Integer.class))
                .getSQL(ParamType.INDEXED);
    }

    /**
     * A page of one segment's key range [B2]: {@code (pk, sk)} at or after ({@code inclusive}) or after the
     * lower bound when there is one, before the upper bound when there is one; binds lower pk, lower sk,
     * upper pk, upper sk (those present), then rows.
     */
    static String segmentPage(DataRelation base, boolean lower, boolean inclusive, boolean upper) {
        org.jooq.Condition where = DSL.noCondition();
        if (lower) {
            var row = DSL.row(base.pk(), base.sk());
            where = where.and(inclusive ? row.ge(DSL.param("pk", byte[].class), DSL.param("sk", byte[].class))
                    : row.gt(DSL.param("pk", byte[].class), DSL.param("sk", byte[].class)));
        }
        if (upper) {
            where = where.and(DSL.row(base.pk(), base.sk()).lt(DSL.param("upk", byte[].class),
                    DSL.param("usk", byte[].class)));
        }
        return RENDER.select(base.pk(), base.sk(), base.item()).from(base.table())
                .where(where)
                .orderBy(base.pk(), base.sk())
                .limit(DSL.param("rows", Integer.class))
                .getSQL(ParamType.INDEXED);
    }

    /** The key at a position of the key order: {@code ORDER BY pk, sk LIMIT 1 OFFSET ?}. */
    static String keyAt(DataRelation base) {
        return RENDER.select(base.pk(), base.sk()).from(base.table())
                .orderBy(base.pk(), base.sk())
                .limit(DSL.inline(1)).offset(DSL.param("offset", Integer.class))
                .getSQL(ParamType.INDEXED);
    }

    static String rowidPage(DataRelation base) {
        return RENDER.select(ROWID, base.item(), base.pk(), base.sk()).from(base.table())
                .where(ROWID.gt(DSL.param("after", Long.class)))
                .orderBy(ROWID)
                .limit(DSL.param("rows", Integer.class))
                .getSQL(ParamType.INDEXED);
    }

    static void closeQuietly(Statement... statements) {
        for (Statement s : statements) {
            try {
                s.close();
            } catch (java.sql.SQLException ignored) {
                // The transaction ends right after; a statement that will not close is freed with it.
            }
        }
    }
}

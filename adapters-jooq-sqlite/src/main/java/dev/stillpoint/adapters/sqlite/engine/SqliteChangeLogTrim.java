package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_COMMIT_SEQUENCE;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.ChangeLogTrim;
import dev.stillpoint.sqlcatalog.ChangeRows;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The change logs' trim on SQLite [I4], one write transaction per table. A MARK row is written under the
 * commit sequence as it stands (every change at or below it has committed; the trim changes no item, so it
 * does not advance the sequence and no marker moves [L5]), its {@code key_json} the pass's instant in epoch
 * milliseconds; the log is then cut at its newest MARK no later
 * than {@code now - retention}: every change at or below the MARK's sequence goes, older MARKs and the START
 * go, and the MARK becomes the START. {@link SqliteChangeLog} refuses a marker below the START's sequence,
 * and a marker at or above it reads only changes above it, none of which the cut removed.
 */
public final class SqliteChangeLogTrim implements ChangeLogTrim {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteChangeLogTrim.class);

    private final Connections connections;

    public SqliteChangeLogTrim(Connections connections) {
        this.connections = connections;
    }

    @Override
    public void trim(Instant now, Duration retention) {
        List<String> tableIds;
        try (Connections.Borrowed r = connections.read()) {
            tableIds = loggedTables(SqliteCatalog.dsl(r.connection()), SP_TABLES.TABLE_ID.isNotNull());
        }
        long cutoff = now.minus(retention).toEpochMilli();
        for (String tableId : tableIds) {
            try (Connections.Borrowed w = connections.write()) {
                Connection c = w.connection();
                try {
                    TransactionStatements.beginWrite(c);
                    DSLContext ctx = SqliteCatalog.dsl(c);
                    // Asked again under the write lock: the log may have been switched off (its relation
                    // dropped) or the table deleted since the listing.
                    if (loggedTables(ctx, SP_TABLES.TABLE_ID.eq(tableId)).isEmpty()) {
                        continue;
                    }
                    trim(ctx, ChangeRelation.ofTableId(tableId), now.toEpochMilli(), cutoff);
                    // No advance: the trim changes no item, so every snapshot's marker stays what it was [L5].
                    TransactionStatements.commit(c);
                } finally {
                    TransactionStatements.rollbackQuietly(c);
                }
            } catch (Exception e) {
                // A failure of one table's trim leaves the others' to run; the next pass tries it again.
                LOG.warn("change log trim of table {}: {}", tableId, e.toString());
            }
        }
    }

    /** The ids of the tables matching {@code which} that keep a change log and are not DELETING. */
    private static List<String> loggedTables(DSLContext ctx, Condition which) {
        return ctx.select(SP_TABLES.TABLE_ID, SP_TABLES.STREAM_SPEC_JSON)
                .from(SP_TABLES).where(which, SP_TABLES.STATUS.ne(TableStatus.DELETING.name())).fetch().stream()
                .filter(t -> CatalogJson.changeLog(t.value2()).enabled()).map(t -> t.value1()).toList();
    }

    /** Marks {@code changes} at {@code nowMillis} and cuts it at its newest MARK at or before {@code cutoffMillis}. */
    static void trim(DSLContext ctx, ChangeRelation changes, long nowMillis, long cutoffMillis) {
        byte[] none = new byte[0];
        ctx.insertInto(changes.table()).columns(changes.fields())
                .select(DSL.select(SP_COMMIT_SEQUENCE.SEQ, DSL.val(ChangeRows.MARK),
                        DSL.val(none), DSL.val(none), DSL.val(Long.toString(nowMillis)), DSL.val((String) null),
                        DSL.val((String) null)).from(SP_COMMIT_SEQUENCE))
                .execute();
        Field<Long> at = changes.keyJson().cast(Long.class);
        Record2<Long, Long> mark = ctx.select(changes.seq(), at).from(changes.table())
                .where(changes.changeKind().eq(ChangeRows.MARK), at.le(cutoffMillis))
                .orderBy(at.desc(), changes.seq().desc()).limit(1).fetchOne();
        if (mark == null) {
            return;
        }
        long seq = mark.value1();
        ctx.deleteFrom(changes.table()).where(changes.changeKind().in(ChangeRows.PUT, ChangeRows.DELETE),
                changes.seq().le(seq)).execute();
        ctx.deleteFrom(changes.table()).where(changes.changeKind().eq(ChangeRows.START)
                .or(changes.changeKind().eq(ChangeRows.MARK).and(at.lt(mark.value2())
                        .or(at.eq(mark.value2()).and(changes.seq().lt(seq)))))).execute();
        ctx.update(changes.table()).set(changes.changeKind(), ChangeRows.START)
                .where(changes.changeKind().eq(ChangeRows.MARK), changes.seq().eq(seq)).execute();
    }
}

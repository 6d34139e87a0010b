package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_COMMIT_SEQUENCE;

import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.ChangeWindows;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.ChangeSink;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.sqlcatalog.ChangeRows;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Record6;
import org.jooq.impl.DSL;

/**
 * A table's changes between two markers on SQLite [I2]. One deferred read transaction, pinned by its first
 * read (the catalog row), as a snapshot's is [Q1]: the sequence it reads is the new marker B, and the
 * change rows it sees are exactly those committed at or before B. A row's seq is the sequence its writing
 * transaction committed as (one writer at a time), so the window (A, B] is "seq greater than A's", read in
 * this snapshot. Rows are folded per key in key order: the last change wins, the old image is the first
 * change's (the item at A). The rows are read through a lazy cursor and each key's change is handed to the
 * sink as soon as its last row is read, so a window of any size holds one key's rows in memory [S7].
 */
public final class SqliteChangeLog implements ChangeLogReads {

    /** {@code <table_id>@<seq>}, the marker a SQLite snapshot reports [L5]. */
    private static final Pattern MARKER = Pattern.compile("([a-z0-9]{1,64})@(0|[1-9][0-9]{0,18})");

    private final Connections connections;

    public SqliteChangeLog(Connections connections) {
        this.connections = connections;
    }

    @Override
    public void streamChanges(String accountId, String tableName, String sinceMarker, ChangeSink sink) {
        String doing = "reading the changes of table '" + tableName + "' since marker '" + sinceMarker + "'";
        try (Connections.Borrowed borrowed = connections.read()) {
            try {
                TransactionStatements.beginRead(borrowed.connection());
                DSLContext ctx = SqliteCatalog.dsl(borrowed.connection());
                // The first read pins the WAL snapshot: definition, sequence and change rows are one instant.
                CatalogRows.Loaded loaded = CatalogRows.load(ctx, accountId, tableName)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
                TableDescription description = ChangeWindows.requireReadable(loaded.description(), sinceMarker);
                long until = CommitSequence.read(ctx);
                String tableId = loaded.row().tableId();
                ChangeRelation changes = loaded.changes();
                long since = sinceOf(sinceMarker, tableName, tableId, until, start(ctx, changes, tableName));
                sink.begin(new ChangeWindow(description.snapshotView(), new SnapshotInfo("sqlite-wal", sinceMarker),
                        new SnapshotInfo("sqlite-wal", tableId + "@" + until)));
                fold(ctx, changes, since, until, description.changeLog().keepsOldImage(), sink);
            } catch (SQLException e) {
                throw SqlFailures.map(doing, e);
            } catch (RuntimeException e) {
                throw SqlFailures.map(doing, e);
            } finally {
                TransactionStatements.rollbackQuietly(borrowed.connection());
            }
        }
    }

    /**
     * The start's sequence, after every refusal [I4]: the marker must be of this backend's form, of this
     * table (its id: a table deleted and created again, or another database's, has another), no older
     * than the log's first instant, and no later than the new snapshot.
     */
    static long sinceOf(String marker, String tableName, String tableId, long until, long logStart) {
        Matcher m = MARKER.matcher(marker == null ? "" : marker);
        if (!m.matches()) {
            throw StorageException.validation("marker '" + marker + "' is not a SQLite snapshot marker"
                    + " (<table id>@<commit sequence>), so it names no instant of table '" + tableName + "' [I4]");
        }
        if (!m.group(1).equals(tableId)) {
            throw StorageException.validation("marker '" + marker + "' is of another table (id " + m.group(1)
                    + "), not of table '" + tableName + "' (id " + tableId + "): from another table, database or"
                    + " deployment, or of a table of this name deleted since [I4]");
        }
        long since;
        try {
            since = Long.parseLong(m.group(2));
        } catch (NumberFormatException e) {
            throw StorageException.validation("marker '" + marker + "' has a commit sequence out of range [I4]");
        }
        if (since > until) {
            throw StorageException.validation("marker '" + marker + "' is later than the newest snapshot of table '"
                    + tableName + "' (" + tableId + "@" + until + "): it names no instant this database has seen [I4]");
        }
        if (since < logStart) {
            throw StorageException.validation("marker '" + marker + "' is older than the change log of table '"
                    + tableName + "', which begins at " + tableId + "@" + logStart + " (switched on or trimmed"
                    + " since): the changes before it are not kept, so no exact window starts there [I4]");
        }
        return since;
    }

    /** Writes the log's START row, in the transaction that creates the log: its seq is that transaction's. */
    static void start(DSLContext ctx, ChangeRelation changes) {
        changes.createAll(ctx).forEach(q -> q.execute());
        byte[] none = new byte[0];
        ctx.insertInto(changes.table()).columns(changes.fields())
                .select(DSL.select(SP_COMMIT_SEQUENCE.SEQ.plus(DSL.inline(1L)), DSL.val(ChangeRows.START),
                        DSL.val(none), DSL.val(none), DSL.val("{}"), DSL.val((String) null), DSL.val((String) null))
                        .from(SP_COMMIT_SEQUENCE))
                .execute();
    }

    /** The log's first instant: the newest START row's seq (a trim moves it forward). */
    private static long start(DSLContext ctx, ChangeRelation changes, String tableName) {
        Long start = ctx.select(DSL.max(changes.seq())).from(changes.table())
                .where(changes.changeKind().eq(ChangeRows.START)).fetchOne(0, Long.class);
        if (start == null) {
            throw StorageException.internal("table '" + tableName + "' says it keeps a change log, but "
                    + changes.name() + " has no START row: the log is damaged", null);
        }
        return start;
    }

    /** The window's rows, per key: the last change's kind and new image, the first change's old image. */
    private static void fold(DSLContext ctx, ChangeRelation changes, long since, long until, boolean oldImages,
                             ChangeSink sink) {
        Record first = null;
        Record last = null;
        try (Cursor<Record6<byte[], byte[], String, String, String, String>> rows = ctx.select(changes.pk(), changes.sk(),
                        changes.changeKind(), changes.keyJson(), changes.newImage(), changes.oldImage())
                .from(changes.table())
                .where(changes.seq().gt(since), changes.seq().le(until), changes.changeKind().in(ChangeRows.PUT, ChangeRows.DELETE))
                .orderBy(changes.pk(), changes.sk(), changes.seq(), DSL.field(DSL.name("rowid")))
                .fetchLazy()) {
            for (Record r : rows) {
                if (last != null && !(Arrays.equals(last.get(changes.pk()), r.get(changes.pk()))
                        && Arrays.equals(last.get(changes.sk()), r.get(changes.sk())))) {
                    add(sink, changes, first, last, oldImages);
                    first = null;
                }
                if (first == null) {
                    first = r;
                }
                last = r;
            }
        }
        if (last != null) {
            add(sink, changes, first, last, oldImages);
        }
    }

    private static void add(ChangeSink sink, ChangeRelation changes, Record first, Record last, boolean oldImages) {
        ChangeRows.windowChange(first.get(changes.changeKind()), first.get(changes.oldImage()),
                last.get(changes.changeKind()), last.get(changes.keyJson()), last.get(changes.newImage()), oldImages)
                .ifPresent(sink::change);
    }
}

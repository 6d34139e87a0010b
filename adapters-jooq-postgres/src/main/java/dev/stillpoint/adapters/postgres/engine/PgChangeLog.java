package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.ChangeWindows;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.ChangeSink;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.sqlcatalog.ChangeRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table's changes between two markers on PostgreSQL [I2], both layouts. The new snapshot B is opened as
 * any snapshot is ({@link PostgresSnapshots}: the definition and the change rows are one MVCC snapshot,
 * the change relation held ACCESS SHARE), so the change rows read are exactly those of transactions
 * visible in B; of those, the window (A, B] keeps the ones whose xid is not visible in A
 * ({@code pg_visible_in_snapshot}). A transaction's xid is taken when it first writes, not when it
 * commits, so neither an xid nor a sequence value orders commits; visibility in the two snapshots is
 * exact whatever the commit order. Rows are folded per key (last change wins, old image of the first).
 *
 * <p>The folded rows are read through a cursor inside the snapshot's transaction and handed to the sink as
 * they come: the client holds one fetch of them, whatever the window's size, and a fetch holds about
 * {@link #FETCH_BYTES} whatever the rows' size [S7] ({@link PageBudget#rowsToFetch}); the server sorts them.
 */
public final class PgChangeLog implements ChangeLogReads {

    /** {@code <table id>@<xmin>:<xmax>:<xip,...>}, the marker a PostgreSQL snapshot reports [L5]. */
    private static final Pattern MARKER = Pattern.compile("([a-z0-9]{1,32})@([0-9]{1,20}:[0-9]{1,20}:[0-9,]{0,100000})");

    /** Whether snapshot A (1) is no later than B (2): every xid visible in A is visible in B. */
    private static final String NOT_LATER = "SELECT pg_snapshot_xmax(?::pg_snapshot) <= pg_snapshot_xmax(?::pg_snapshot)"
            + " AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(?::pg_snapshot) x WHERE pg_visible_in_snapshot(x, ?::pg_snapshot))";

    /** Rows a fetch of the window's cursor holds at most. */
    static final int FETCH_ROWS = 500;
    /**
     * Bytes of rows (key, new and old image) a fetch holds, about: a default page's [S7]. 500 rows of the
     * largest items held 400 MB, and an export of 250 changes of 300 KB items ran out of a 64 MiB heap.
     */
    public static final long FETCH_BYTES = PageBudget.DEFAULT.bytes();
    private static final PageBudget FETCH = new PageBudget(FETCH_ROWS, FETCH_BYTES);

    private final PostgresSnapshots snapshots;
    private final ReadObserver observer;

    /**
     * The change log reads over {@code snapshots}.
     *
     * @param snapshots opens the window's new snapshot B
     * @param observer told of each fetch of the window's rows, a round trip (tests count them)
     */
    public PgChangeLog(PostgresSnapshots snapshots, ReadObserver observer) {
        this.snapshots = snapshots;
        this.observer = observer;
    }

    @Override
    public void streamChanges(String accountId, String tableName, String sinceMarker, ChangeSink sink) {
        String doing = "reading the changes of table '" + tableName + "' since marker '" + sinceMarker + "'";
        BegunRead begun = snapshots.begin(accountId, tableName, ReadObserver.NONE);
        DefinedRead defined;
        try {
            defined = begun.readDefinition();
        } catch (RuntimeException e) {
            begun.close();
            throw e;
        }
        PostgresSnapshots.Pinned pinned;
        TableDescription description;
        try {
            description = ChangeWindows.requireReadable(defined.description(), sinceMarker);
            pinned = (PostgresSnapshots.Pinned) defined.pin();
        } catch (RuntimeException e) {
            defined.close();
            throw e;
        }
        try {
            CatalogRows.Loaded loaded = pinned.loaded();
            ChangeRelation changes = loaded.changes().orElseThrow();
            String until = pinned.info().marker();
            String since = sinceOf(sinceMarker, tableName, loaded.row().tableId());
            Connection data = pinned.data();
            requireInWindow(data, changes, sinceMarker, since, until, tableName);
            sink.begin(new ChangeWindow(description.dropDeletingIndexes().snapshotView(),
                    new SnapshotInfo(PostgresSnapshots.KIND, sinceMarker), pinned.info()));
            fold(data, changes, since, description.changeLog().keepsOldImage(), sink, observer);
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        } finally {
            pinned.close();
        }
    }

    /**
     * The start's snapshot text, after the refusals the marker's form decides [I4]: a marker of this backend's
     * form, of this table (its id: a table deleted and created again, or another database's, has another).
     */
    static String sinceOf(String marker, String tableName, String tableId) {
        Matcher m = MARKER.matcher(marker == null ? "" : marker);
        if (!m.matches()) {
            throw StorageException.validation("marker '" + marker + "' is not a PostgreSQL snapshot marker"
                    + " (<table id>@<xmin>:<xmax>:<xip>), so it names no instant of table '" + tableName + "'"
                    + " (a marker of the snapshot's text alone, as snapshots reported before the change log,"
                    + " names no table) [I4]");
        }
        if (!m.group(1).equals(tableId)) {
            throw StorageException.validation("marker '" + marker + "' is of another table (id " + m.group(1)
                    + "), not of table '" + tableName + "' (id " + tableId + "): from another table, database or"
                    + " deployment, or of a table of this name deleted since [I4]");
        }
        return m.group(2);
    }

    /**
     * Refuses a start the log cannot answer exactly [I4]: a snapshot that is not PostgreSQL's, later than the
     * new one, or that does not see the log's START (taken before the log began, or trimmed past).
     */
    private static void requireInWindow(Connection data, ChangeRelation changes, String marker, String since,
                                        String until, String tableName) throws SQLException {
        String b = until.substring(until.indexOf('@') + 1);
        boolean notLater;
        try (PreparedStatement s = data.prepareStatement(NOT_LATER)) {
            s.setString(1, since);
            s.setString(2, b);
            s.setString(3, b);
            s.setString(4, since);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                notLater = rs.getBoolean(1);
            }
        } catch (SQLException e) {
            if (PgFailures.sqlState(e).startsWith("22")) {
                throw StorageException.validation("marker '" + marker + "' holds no PostgreSQL snapshot ("
                        + PgFailures.describe(e) + "), so it names no instant of table '" + tableName + "' [I4]");
            }
            throw e;
        }
        if (!notLater) {
            throw StorageException.validation("marker '" + marker + "' is later than the newest snapshot of table '"
                    + tableName + "' (" + until + "): it names no instant this database has seen [I4]");
        }
        String startSql = "SELECT pg_visible_in_snapshot(xid, ?::pg_snapshot), xid::text FROM " + changes.quoted()
                + " WHERE kind = '" + ChangeRows.START + "'";
        try (PreparedStatement s = data.prepareStatement(startSql)) {
            s.setString(1, since);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw StorageException.internal("table '" + tableName + "' says it keeps a change log, but "
                            + changes.relation().name() + " has no START row: the log is damaged", null);
                }
                if (!rs.getBoolean(1)) {
                    throw StorageException.validation("marker '" + marker + "' is older than the change log of table '"
                            + tableName + "', which begins with transaction " + rs.getString(2) + " (switched on or"
                            + " trimmed since): the changes before it are not kept, so no exact window starts there [I4]");
                }
            }
        }
    }

    /**
     * The window's rows folded per key, in key order: the last change's kind and new image (by seq, which
     * for one key is the commit order), the first change's kind and old image (the item at A). Read through
     * a cursor (the snapshot's transaction is open) whose fetches hold about {@link #FETCH_BYTES} (at most
     * {@link #FETCH_ROWS} rows), each row handed to the sink as it comes, so a window of any size holds one
     * fetch in memory [S7].
     */
    private static void fold(Connection data, ChangeRelation changes, String since, boolean oldImages, ChangeSink sink,
                             ReadObserver observer) throws SQLException {
        String keys = changes.keyColumns();
        String sql = "SELECT kind, key_json, new_image, first_kind, first_old FROM (SELECT kind, key_json, new_image, "
                + keys + ", first_value(kind) OVER w AS first_kind, first_value(old_image) OVER w AS first_old,"
                + " row_number() OVER (PARTITION BY " + keys + " ORDER BY seq DESC) AS from_last"
                + " FROM " + changes.quoted()
                + " WHERE kind IN ('" + ChangeRows.PUT + "', '" + ChangeRows.DELETE + "')"
                // Any xid older than A's xmin is visible in A: the index on xid bounds the scan.
                + " AND xid >= pg_snapshot_xmin(?::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, ?::pg_snapshot)"
                + " WINDOW w AS (PARTITION BY " + keys + " ORDER BY seq"
                + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) w"
                + " WHERE from_last = 1 ORDER BY " + keys;
        try (PreparedStatement s = data.prepareStatement(sql)) {
            int leftInFetch = FETCH.rowsToFetch(0, 0, 0, 0);
            s.setFetchSize(leftInFetch);
            s.setString(1, since);
            s.setString(2, since);
            observer.roundTrip();
            try (ResultSet rs = s.executeQuery()) {
                long rowsSeen = 0;
                long bytesSeen = 0;
                while (true) {
                    if (leftInFetch == 0) {
                        // The fetch is used up: the next row is a round trip, sized by the rows seen so far.
                        leftInFetch = FETCH.rowsToFetch(0, 0, rowsSeen, bytesSeen);
                        rs.setFetchSize(leftInFetch);
                        observer.roundTrip();
                    }
                    if (!rs.next()) {
                        break;
                    }
                    leftInFetch--;
                    String keyJson = rs.getString(2);
                    String newImage = rs.getString(3);
                    String firstOld = rs.getString(5);
                    rowsSeen++;
                    bytesSeen += length(keyJson) + length(newImage) + length(firstOld);
                    ChangeRows.windowChange(rs.getString(4), firstOld, rs.getString(1), keyJson, newImage, oldImages)
                            .ifPresent(sink::change);
                }
            }
        }
    }

    /** A column's characters, about its bytes (the images are JSON, mostly ASCII); 0 for SQL NULL. */
    private static long length(String column) {
        return column == null ? 0 : column.length();
    }
}

package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.sqlcatalog.StoredUtf8;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages from the snapshot's cursor, each FETCH one round trip. A FETCH asks for what is left of
 * the page's rows, or fewer when the items seen so far say the byte budget fills first; rows a
 * FETCH returned past a full page wait for the next page. So a page holds at most the byte
 * budget plus one item, and memory stays about one page whatever the table's size [S7].
 */
final class CursorPages implements PageSource {

    /** Rows of the first FETCH, before the items' size is known (16 of the largest items are 6.5 MB). */
    private static final int FIRST_FETCH_ROWS = 16;

    /** The cursor's name: one snapshot per connection, so one name serves every open. */
    private static final String CURSOR = "sp_snapshot";

    private final Connection data;
    private final String tableName;
    private final ReadObserver observer;
    private final ArrayDeque<byte[]> fetched = new ArrayDeque<>();
    private boolean exhausted;
    private long rowsSeen;
    private long bytesSeen;
    private boolean closed;

    /**
     * Declares the cursor of {@code query} in the data transaction (no row is read yet) and returns its
     * pages; they own the transaction from here on.
     */
    static CursorPages declare(Connection data, String query, String tableName, ReadObserver observer) throws SQLException {
        Tx.exec(data, "DECLARE " + CURSOR + " NO SCROLL CURSOR FOR " + query);
        return new CursorPages(data, tableName, observer);
    }

    /** Pages of the cursor already declared as {@code sp_snapshot} in {@code data}'s transaction. */
    CursorPages(Connection data, String tableName, ReadObserver observer) {
        this.data = data;
        this.tableName = tableName;
        this.observer = observer;
    }

    @Override
    public Page nextPage(PageBudget budget) {
        List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
        long bytes = 0;
        try {
            while (!budget.full(items.size(), bytes)) {
                if (fetched.isEmpty()) {
                    if (exhausted) {
                        break;
                    }
                    fetch(fetchRows(budget, items.size(), bytes));
                    if (fetched.isEmpty()) {
                        break;
                    }
                }
                StoredUtf8 item = new StoredUtf8(fetched.poll());
                bytes += item.size();
                items.add(item);
            }
        } catch (SQLException e) {
            throw PgFailures.mapSnapshot("reading a page of a snapshot of '" + tableName + "'", e);
        }
        return new Page(items, exhausted && fetched.isEmpty());
    }

    /** Rows for the next FETCH: what is left of the page, bounded by what the byte budget allows. */
    int fetchRows(PageBudget budget, int itemsInPage, long bytesInPage) {
        int rowsLeft = budget.rows() - itemsInPage;
        if (rowsSeen == 0) {
            return Math.min(rowsLeft, FIRST_FETCH_ROWS);
        }
        long average = Math.max(1, bytesSeen / rowsSeen);
        long byBytes = (budget.bytes() - bytesInPage) / average + 1;
        return (int) Math.max(1, Math.min(rowsLeft, byBytes));
    }

    private void fetch(int rows) throws SQLException {
        observer.roundTrip();
        int got = 0;
        try (Statement s = data.createStatement();
             ResultSet rs = s.executeQuery("FETCH FORWARD " + rows + " FROM " + CURSOR)) {
            while (rs.next()) {
                // The text column's bytes as they came (pgjdbc returns a text column's UTF-8 as is):
                // no String is made unless a reader asks for json().
                byte[] utf8 = rs.getBytes(1);
                if (utf8 == null) {
                    // A row this adapter cannot have written (its item column is NOT NULL): the stream ends here.
                    throw new StorageException(ErrorReason.INTERNAL, "a row of table '" + tableName
                            + "' has no item text; the snapshot stream ends at it");
                }
                fetched.add(utf8);
                bytesSeen += utf8.length;
                got++;
            }
        }
        rowsSeen += got;
        if (got < rows) {
            exhausted = true;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            fetched.clear();
            // Ends the read transaction (the cursor with it) and gives the connection back.
            Tx.release(data);
        }
    }
}

package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.ScalarType;
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
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Pages from the snapshot's query, read through the protocol's own portal: pgjdbc runs the query in
 * the data transaction with a fetch size, and each batch of rows is one round trip (an Execute with a
 * row limit). A batch asks for what is left of the page's rows, or fewer when the items seen so far
 * say the byte budget fills first; rows a batch returned past a full page wait, in the driver, for the
 * next page. So a page holds at most the byte budget plus one item, and memory stays about one page
 * whatever the table's size [S7].
 *
 * <p>Not {@code DECLARE} and {@code FETCH}: the server puts each FETCH's rows in a tuplestore before
 * sending them, and on a backend whose allocator hands that memory back to the kernel after every
 * FETCH (fresh connections, measured), each FETCH of 1,000 items page-faults it in again: about 80,000
 * faults and twice the server's CPU per million items. The portal sends rows as the scan makes them
 * (BENCHMARKS.md, "A fresh connection's FETCHes").
 */
final class CursorPages implements PageSource {

    private final Connection data;
    /** What a failure becomes when the storage was closed meanwhile ({@link Pools#closedOr}). */
    private final UnaryOperator<StorageException> closedOr;
    private final String query;
    private final String tableName;
    private final ReadObserver observer;
    /** The types of the key columns the query selects after the item (pk, then sk); none when it selects the item alone. */
    private final List<ScalarType> keyTypes;
    private Statement statement;
    private ResultSet rows;
    // Rows of the last batch not read yet: a next() with none left is a round trip for the next batch.
    private int leftInBatch;
    private long rowsSeen;
    private long bytesSeen;
    private Position position = Position.UNSENT;

    /** Where the query's rows stand. */
    private enum Position {
        /** Nothing sent yet: the first page sends the query. */
        UNSENT,
        /** The query runs; the next batch is a fetch. */
        READING,
        /** The last row was read. */
        EXHAUSTED,
        /** The transaction ended and the connection went back; nothing more may be done. */
        CLOSED
    }

    /**
     * The pages of {@code query} in the data transaction of {@code data}; nothing is sent until the first
     * page is asked for, and the pages own the transaction from here on. The query selects the item column,
     * then a key column per type of {@code keyTypes}: each item then carries its stored key [E1]. A page read
     * that fails because the storage was closed meanwhile says so ({@code closedOr}).
     */
    CursorPages(UnaryOperator<StorageException> closedOr, Connection data, String query, List<ScalarType> keyTypes,
                String tableName, ReadObserver observer) {
        this.closedOr = closedOr;
        this.data = data;
        this.query = query;
        this.keyTypes = List.copyOf(keyTypes);
        this.tableName = tableName;
        this.observer = observer;
    }

    @Override
    public Page nextPage(PageBudget budget) {
        if (position == Position.CLOSED) {
            // Its connection is back in the pool: a query now would run in someone else's transaction.
            throw new StorageException(ErrorReason.INTERNAL, "the pages of a snapshot of '" + tableName
                    + "' were asked for after their close");
        }
        List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
        long bytes = 0;
        try {
            while (position != Position.EXHAUSTED && !budget.full(items.size(), bytes)) {
                if (leftInBatch == 0) {
                    ask(fetchRows(budget, items.size(), bytes));
                }
                if (!rows.next()) {
                    // The batch came back short, or empty: the query has no more rows.
                    position = Position.EXHAUSTED;
                    break;
                }
                leftInBatch--;
                // The text column's bytes as they came (pgjdbc returns a text column's UTF-8 as is):
                // no String is made unless a reader asks for json().
                byte[] utf8 = rows.getBytes(1);
                if (utf8 == null) {
                    // A row this adapter cannot have written (its item column is NOT NULL): the stream ends here.
                    throw new StorageException(ErrorReason.INTERNAL, "a row of table '" + tableName
                            + "' has no item text; the snapshot stream ends at it");
                }
                StoredUtf8 item = keyTypes.isEmpty() ? new StoredUtf8(utf8) : StoredRow.read(utf8, rows, keyTypes);
                bytes += item.size();
                bytesSeen += utf8.length;
                rowsSeen++;
                items.add(item);
            }
        } catch (SQLException e) {
            throw closedOr.apply(PgFailures.mapSnapshot("reading a page of a snapshot of '" + tableName + "'", e));
        }
        return new Page(items, position == Position.EXHAUSTED);
    }

    /** Sets the size of the next batch, which the next {@code next()} fetches: the query's first, or the next. */
    private void ask(int batchRows) throws SQLException {
        observer.roundTrip();
        if (position == Position.UNSENT) {
            position = Position.READING;
            statement = data.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(batchRows);
            rows = statement.executeQuery(query);
        } else {
            rows.setFetchSize(batchRows);
        }
        leftInBatch = batchRows;
    }

    /** Rows for the next batch: what is left of the page, bounded by what the byte budget allows. */
    int fetchRows(PageBudget budget, int itemsInPage, long bytesInPage) {
        return budget.rowsToFetch(itemsInPage, bytesInPage, rowsSeen, bytesSeen);
    }

    @Override
    public void close() {
        if (position != Position.CLOSED) {
            position = Position.CLOSED;
            // Ends the read transaction (the portal with it) and gives the connection back; the statement
            // is closed first so the driver forgets the portal.
            closeQuietly(statement);
            TransactionStatements.release(data);
        }
    }

    private static void closeQuietly(Statement s) {
        if (s != null) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // A broken connection: the release below closes it.
            }
        }
    }
}

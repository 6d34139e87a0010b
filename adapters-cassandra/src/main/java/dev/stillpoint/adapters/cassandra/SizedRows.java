package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.ports.out.PageBudget;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.ToLongFunction;

/**
 * The rows of a read of every row of an items table (a recount, a GSI backfill's scan, a restore's count of
 * its keys), fetched in pages sized by bytes [S7]. The driver holds a page whole and the node builds it whole,
 * and a page of 500 of the largest items is 200 MB: a restore of 200 items of 395 KB killed a 256 MiB test node
 * at its count of keys, and a read of the same items' text in pages of 500 killed it too. Each page asks for
 * as many rows as {@link #BUDGET} holds at the average row read so far ({@link PageBudget#rowsToFetch}),
 * resuming from the previous page's paging state. A row's size is what the node reads for it: a read of keys
 * alone still makes the node read each whole row, so such a read sizes its rows by the items it wrote.
 */
final class SizedRows implements Iterable<Row> {

    /** A page: at most the rows of any read's page ({@link Cql#PAGE_SIZE}), and about 4 MiB of item text. */
    static final PageBudget BUDGET = new PageBudget(Cql.PAGE_SIZE, PageBudget.DEFAULT.bytes());

    private final Cql cql;
    private final String doing;
    private final BoundStatement statement;
    private final ToLongFunction<Row> rowBytes;
    private int pages;

    SizedRows(Cql cql, String doing, BoundStatement statement, ToLongFunction<Row> rowBytes) {
        this.cql = cql;
        this.doing = doing;
        this.statement = statement;
        this.rowBytes = rowBytes;
    }

    /** The pages fetched so far, by every iterator of these rows. */
    int pages() {
        return pages;
    }

    /** The rows from the first; the first page is fetched now. */
    @Override
    public Iterator<Row> iterator() {
        return new Iterator<>() {
            private ResultSet page = fetch(null, BUDGET.rowsToFetch(0, 0, 0, 0));
            private int left = page.getAvailableWithoutFetching();
            private long rowsSeen;
            private long bytesSeen;

            @Override
            public boolean hasNext() {
                while (left == 0) {
                    ByteBuffer state = page.getExecutionInfo().getPagingState();
                    if (state == null) {
                        return false;
                    }
                    page = fetch(state, BUDGET.rowsToFetch(0, 0, rowsSeen, bytesSeen));
                    left = page.getAvailableWithoutFetching();
                }
                return true;
            }

            @Override
            public Row next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                // Within the page's rows: one() fetches nothing here.
                Row row = page.one();
                left--;
                rowsSeen++;
                bytesSeen += rowBytes.applyAsLong(row);
                return row;
            }
        };
    }

    private ResultSet fetch(ByteBuffer pagingState, int rows) {
        pages++;
        return cql.execute(doing, statement.setPagingState(pagingState).setPageSize(rows));
    }
}

package dev.stillpoint.adapters.postgres.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.testing.PgServer;
import dev.stillpoint.adapters.postgres.testing.ScratchDatabase;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.sql.Connection;
import java.util.List;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The snapshot's pages on a live server: bounded by rows and bytes, one batch of the portal per round trip [S7]. */
class CursorPagesTest {

    private static ScratchDatabase database;

    @BeforeAll
    static void create() {
        database = PgServer.get().create("cursor");
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            database.close();
        }
    }

    private static CursorPages cursor(String select, AtomicInteger fetches) throws SQLException {
        Connection c = database.connect();
        c.setAutoCommit(false);
        return new CursorPages(java.util.function.UnaryOperator.identity(), c, select, List.of(), "t", new ReadObserver() {
            @Override
            public void roundTrip() {
                fetches.incrementAndGet();
            }
        });
    }

    @Test
    void s7_aPageHoldsAtMostTheByteBudgetPlusOneItem() throws SQLException {
        AtomicInteger fetches = new AtomicInteger();
        // 200 items of 1,000 characters; a page budget of 1,000 rows or 10,000 bytes.
        CursorPages pages = cursor("SELECT repeat('x', 1000) FROM generate_series(1, 200)", fetches);
        PageBudget budget = new PageBudget(1000, 10_000);
        int total = 0;
        int pageCount = 0;
        Page page;
        do {
            page = pages.nextPage(budget);
            long bytes = page.items().stream().mapToLong(i -> i.json().length()).sum();
            assertThat(bytes).as("page %d", pageCount).isLessThanOrEqualTo(10_000 + 1000);
            total += page.items().size();
            pageCount++;
        } while (!page.last());
        pages.close();
        assertThat(total).isEqualTo(200);
        assertThat(pageCount).isBetween(20, 21);
        // After the first batch of 16 rows, each batch asks for about one page (11 rows), never the 1,000.
        assertThat(fetches.get()).isBetween(18, 24);
    }

    @Test
    void s7_aPageHoldsAtMostItsRows() throws SQLException {
        AtomicInteger fetches = new AtomicInteger();
        CursorPages pages = cursor("SELECT g::text FROM generate_series(1, 10) g", fetches);
        PageBudget budget = new PageBudget(3, 1 << 20);
        assertThat(pages.nextPage(budget).items()).hasSize(3);
        assertThat(pages.nextPage(budget).items()).hasSize(3);
        assertThat(pages.nextPage(budget).items()).hasSize(3);
        Page last = pages.nextPage(budget);
        assertThat(last.items()).hasSize(1);
        assertThat(last.last()).isTrue();
        assertThat(fetches.get()).isEqualTo(4);
        pages.close();
    }

    // A row with no item text (the item column is NOT NULL, so another writer made it) ends the stream
    // with an error naming the table, after the items before it; it is not read as the end.
    @Test
    void aRowWithoutItemTextIsRefusedNotReadAsTheEnd() throws SQLException {
        AtomicInteger fetches = new AtomicInteger();
        CursorPages pages = cursor("SELECT v FROM (VALUES (1, 'a'), (2, NULL), (3, 'c')) AS t(k, v) ORDER BY k", fetches);
        PageBudget budget = new PageBudget(1, 1 << 20);
        assertThat(pages.nextPage(budget).items()).extracting(StoredItem::json).containsExactly("a");
        assertThatThrownBy(() -> pages.nextPage(budget))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessage("a row of table 't' has no item text; the snapshot stream ends at it");
        pages.close();
    }

    // After close the connection is back in the pool: a page asked for then is refused and sends nothing,
    // whether the query was sent or not; a second close gives nothing back twice.
    @Test
    void aPageAskedForAfterCloseIsRefusedAndSendsNothing() throws SQLException {
        AtomicInteger fetches = new AtomicInteger();
        PageBudget budget = new PageBudget(3, 1 << 20);
        CursorPages read = cursor("SELECT g::text FROM generate_series(1, 10) g", fetches);
        assertThat(read.nextPage(budget).items()).hasSize(3);
        read.close();
        read.close();
        CursorPages unsent = cursor("SELECT g::text FROM generate_series(1, 10) g", fetches);
        unsent.close();

        for (CursorPages pages : new CursorPages[] {read, unsent}) {
            assertThatThrownBy(() -> pages.nextPage(budget))
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                    .hasMessage("the pages of a snapshot of 't' were asked for after their close");
        }
        assertThat(fetches.get()).as("round trips: the first page's only").isEqualTo(1);
    }
}

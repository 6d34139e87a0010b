package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.ports.out.PageBudget;
import org.junit.jupiter.api.Test;

/**
 * The rows a cursor asks for next [S7] ({@link PageBudget#rowsToFetch}), which PostgreSQL's snapshot pages and
 * change log window and Cassandra's item reads share: a few rows before any size is known, then what the bytes
 * left hold at the average row so far, never more than the rows left, never fewer than one, none when full.
 */
class PageBudgetFetchTest {

    private static final PageBudget BUDGET = new PageBudget(500, 4L << 20);

    @Test
    void theFirstFetchAsksForAFewRows() {
        assertThat(BUDGET.rowsToFetch(0, 0, 0, 0)).isEqualTo(PageBudget.FIRST_FETCH_ROWS);
        assertThat(new PageBudget(5, 1 << 20).rowsToFetch(0, 0, 0, 0)).as("a budget of fewer rows").isEqualTo(5);
    }

    @Test
    void laterFetchesAskForWhatTheBytesLeftHoldAtTheAverageRow() {
        // 16 rows of 600,000 bytes seen: 4 MiB hold 6 more, and one more so the page reaches its budget.
        assertThat(BUDGET.rowsToFetch(0, 0, 16, 16 * 600_000L)).isEqualTo(7);
        // Half the bytes used: half as many.
        assertThat(BUDGET.rowsToFetch(3, 2L << 20, 16, 16 * 600_000L)).isEqualTo(4);
        // Small rows: bounded by the rows left, not by the bytes.
        assertThat(BUDGET.rowsToFetch(0, 0, 1000, 400_000L)).isEqualTo(500);
        assertThat(BUDGET.rowsToFetch(450, 180_000L, 1000, 400_000L)).isEqualTo(50);
    }

    @Test
    void aRowLargerThanTheBudgetIsStillFetchedOneAtATime() {
        assertThat(BUDGET.rowsToFetch(0, 0, 2, 20L << 20)).isEqualTo(1);
        assertThat(BUDGET.rowsToFetch(0, (4L << 20) - 1, 2, 20L << 20)).isEqualTo(1);
    }

    @Test
    void aFullPageFetchesNothing() {
        assertThat(BUDGET.rowsToFetch(500, 0, 500, 1000)).isZero();
        assertThat(BUDGET.rowsToFetch(3, 4L << 20, 3, 4L << 20)).isZero();
    }
}

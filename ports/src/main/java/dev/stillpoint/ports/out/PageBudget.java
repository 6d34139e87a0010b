package dev.stillpoint.ports.out;

import dev.stillpoint.domain.error.StorageException;

/**
 * How much one page of a snapshot may hold [S7]: at most {@code rows} items and, once it holds
 * {@code bytes} of stored item text, no more (so the page is at most the budget plus one item).
 */
public record PageBudget(int rows, long bytes) {

    /** 1000 rows or 4 MiB, whichever comes first. */
    public static final PageBudget DEFAULT = new PageBudget(1000, 4L << 20);

    /** Rows of a cursor's first fetch, before the rows' size is known ({@link #rowsToFetch}). */
    public static final int FIRST_FETCH_ROWS = 16;

    /**
     * Refuses fewer than one row or one byte, VALIDATION naming the value.
     *
     * @param rows the most items a page holds
     * @param bytes the stored item text after which a page takes no more items
     */
    public PageBudget {
        if (rows < 1) {
            throw StorageException.validation("page rows must be at least 1, got " + rows);
        }
        if (bytes < 1) {
            throw StorageException.validation("page bytes must be at least 1, got " + bytes);
        }
    }

    /**
     * Whether a page with {@code count} items and {@code size} bytes is full.
     *
     * @param count the items in the page so far
     * @param size the bytes of stored item text in the page so far
     * @return true when the page takes no more items
     */
    public boolean full(int count, long size) {
        return count >= rows || size >= bytes;
    }

    /**
     * The rows to ask a cursor for next, so that what it hands over at once stays about within this budget
     * whatever the rows' size: a few rows while none was read ({@link #FIRST_FETCH_ROWS} of the largest
     * items are 6.5 MB), then as many as the bytes left hold at the average row read so far, at least one.
     * A driver holds a whole fetch in memory, and a database server builds it whole: a fixed row count of
     * the largest items is hundreds of MB.
     *
     * @param count the items in the page so far
     * @param size the bytes in the page so far
     * @param rowsSeen the rows the cursor has read so far
     * @param bytesSeen their bytes
     * @return a count from 1 to what is left of {@link #rows()}; 0 when the page is full
     */
    public int rowsToFetch(int count, long size, long rowsSeen, long bytesSeen) {
        int rowsLeft = rows - count;
        if (full(count, size)) {
            return 0;
        }
        if (rowsSeen == 0) {
            return Math.min(rowsLeft, FIRST_FETCH_ROWS);
        }
        long average = Math.max(1, bytesSeen / rowsSeen);
        return (int) Math.max(1, Math.min(rowsLeft, (bytes - size) / average + 1));
    }
}

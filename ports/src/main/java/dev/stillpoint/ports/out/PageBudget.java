package dev.stillpoint.ports.out;

import dev.stillpoint.domain.error.StorageException;

/**
 * How much one page of a snapshot may hold [S7]: at most {@code rows} items and, once it holds
 * {@code bytes} of stored item text, no more (so the page is at most the budget plus one item).
 */
public record PageBudget(int rows, long bytes) {

    /** 1000 rows or 4 MiB, whichever comes first. */
    public static final PageBudget DEFAULT = new PageBudget(1000, 4L << 20);

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
}

package dev.stillpoint.ports.out;

/**
 * How much one page of a snapshot may hold [S7]: at most {@code rows} items and, once it holds
 * {@code bytes} of stored item text, no more (so the page is at most the budget plus one item).
 */
public record PageBudget(int rows, long bytes) {

    /** 1000 rows or 4 MiB, whichever comes first. */
    public static final PageBudget DEFAULT = new PageBudget(1000, 4L << 20);

    public PageBudget {
        if (rows < 1) {
            throw new IllegalArgumentException("page rows must be at least 1, got " + rows);
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("page bytes must be at least 1, got " + bytes);
        }
    }

    /** Whether a page with {@code count} items and {@code size} bytes is full. */
    public boolean full(int count, long size) {
        return count >= rows || size >= bytes;
    }
}

package dev.stillpoint.adapters.postgres.engine;

/**
 * The rows a cursor's next fetch asks for, so that a fetch holds about a byte budget whatever the rows'
 * size [S7]: a few rows first, then as many as the average row read so far fits in the bytes left, at least
 * one. pgjdbc holds a whole fetch in memory, so a fixed row count would hold hundreds of the largest items.
 */
final class FetchSizes {

    /** Rows of a cursor's first fetch, before the rows' size is known (16 of the largest items are 6.5 MB). */
    static final int FIRST_ROWS = 16;

    private FetchSizes() {
    }

    /**
     * The rows of the next fetch: at most {@code rowsLeft}, about {@code bytesLeft} at the average row so far.
     *
     * @param rowsLeft the most rows the fetch may ask for, positive
     * @param bytesLeft the bytes the fetch may hold
     * @param rowsSeen the rows read so far
     * @param bytesSeen their bytes
     * @return a count from 1 to {@code rowsLeft}
     */
    static int next(int rowsLeft, long bytesLeft, long rowsSeen, long bytesSeen) {
        if (rowsSeen == 0) {
            return Math.min(rowsLeft, FIRST_ROWS);
        }
        long average = Math.max(1, bytesSeen / rowsSeen);
        return (int) Math.max(1, Math.min(rowsLeft, bytesLeft / average + 1));
    }
}

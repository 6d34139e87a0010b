package dev.stillpoint.ports.out;

import java.util.List;

/**
 * Every item of a table's base relation, read in bounded pages, each item exactly once; how the backend
 * pages (a key after the last one, a server cursor, the driver's paging) is its own. Closed by the
 * core when the scan ends, on every path.
 */
public interface ItemScan extends AutoCloseable {

    /**
     * The next items, at most {@code max}; fewer than {@code max} only when the scan is at its end.
     *
     * @param max the page's bound, positive
     * @return the next page (empty at the end)
     */
    List<BaseItem> next(int max);

    /** Releases what the scan holds (a cursor, a statement); a failure to do so is the backend's to log. */
    @Override
    void close();
}

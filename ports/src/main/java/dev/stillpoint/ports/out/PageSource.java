package dev.stillpoint.ports.out;

/**
 * The backend's side of a streaming snapshot: pages from the pinned instant. Called by one thread
 * at a time, but not always the same one (the engine fetches each page after the first on a
 * read-ahead thread; each call happens after the one before returned), so nothing it holds may be
 * confined to one thread; {@link #close()} ends the read transaction, session or copy and is
 * called exactly once.
 */
public interface PageSource extends AutoCloseable {

    /**
     * The next page within the budget; a failure is a {@code StorageException} and ends the stream.
     *
     * @param budget how much the page may hold [S7]
     * @return the page; its {@code last} flag says whether another follows
     */
    Page nextPage(PageBudget budget);

    /** Ends the read transaction, session or copy and gives its connection back. */
    @Override
    void close();
}

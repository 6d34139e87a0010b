package dev.stillpoint.core.snapshot;

import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment's pages [B2]: the adapter's source for its key range, and a share of the read the
 * segments have in common. Closing it closes its own source and gives its share back; the shared read
 * ends with the LAST share, so the table keeps its reader (DeleteTable defers, a drop waits) until the
 * last segment ends, whichever closes first and however (drained, closed, failed, expired, reclaimed).
 */
final class SegmentPages implements PageSource {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentPages.class);

    private final PageSource own;
    private final Shared shared;
    private boolean closed;

    SegmentPages(PageSource own, Shared shared) {
        this.own = own;
        this.shared = shared;
    }

    @Override
    public Page nextPage(PageBudget budget) {
        return own.nextPage(budget);
    }

    /** Closes this segment's source, then gives back its share of the read (at most once). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            own.close();
        } finally {
            shared.release();
        }
    }

    /** The read the segments share, ended when the last of {@code holders} gave it back. */
    static final class Shared {
        private final AutoCloseable read;
        private final String table;
        private final AtomicInteger holders;

        Shared(AutoCloseable read, int holders, String table) {
            this.read = read;
            this.table = table;
            this.holders = new AtomicInteger(holders);
        }

        void release() {
            if (holders.decrementAndGet() != 0) {
                return;
            }
            try {
                read.close();
            } catch (Exception e) {
                LOG.warn("ending the shared read of a segmented snapshot of table '{}' failed: {}", table, e.toString());
            }
        }
    }
}

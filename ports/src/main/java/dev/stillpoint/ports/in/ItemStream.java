package dev.stillpoint.ports.in;

import java.util.Iterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A snapshot's items, page by page, holding the backend's transaction, session or copy and a
 * permit until it ends [S5]. Use it in try-with-resources: closing it from any thread releases
 * everything at once; a stream dropped without close is reclaimed and logged. The first error
 * ends the stream [S6]; nothing is yielded after it ends.
 */
public interface ItemStream extends Iterator<StoredItem>, AutoCloseable {

    /** Releases the lease; idempotent and safe from any thread. */
    @Override
    void close();

    /**
     * Whether the lease is released (drained, failed, closed or reclaimed).
     *
     * @return true once the lease is released
     */
    boolean isReleased();

    /**
     * The items as a sequential {@link Stream} that closes this stream when closed.
     *
     * @return the remaining items as a stream
     */
    default Stream<StoredItem> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(this::close);
    }
}

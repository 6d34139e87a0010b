package dev.stillpoint.ports.out;

import java.util.List;
import java.util.Objects;

/**
 * What a pinned read hands over for a segmented snapshot [B2]: one page source per key range, lowest
 * range first, and what the segments share. The engine closes each source when its segment ends, and
 * {@code sharedRead} once, after the LAST segment ended: a backend that serves every segment from one
 * read transaction (SQLite) puts that transaction there, so closing one segment does not end the read
 * the others still page through, and the table keeps its reader until the last segment ends.
 *
 * @param segments   the page sources, one per segment, lowest key range first
 * @param sharedRead what the segments read through together; {@link #NOTHING_SHARED} when each source
 *                   owns its own connection (PostgreSQL)
 */
public record SegmentSources(List<PageSource> segments, AutoCloseable sharedRead) {

    /** The shared read of segments that each own their connection. */
    public static final AutoCloseable NOTHING_SHARED = () -> { };

    /**
     * Copies the sources; refuses none.
     *
     * @param segments   the page sources, lowest key range first
     * @param sharedRead closed after the last segment ended
     */
    public SegmentSources {
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a segmented read has at least one segment");
        }
        Objects.requireNonNull(sharedRead, "sharedRead");
    }
}

package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One instant of a table read as N streams over disjoint key ranges [B2]: the segments, in key-range
 * order, together yield exactly the items one {@link TableSnapshot} of that instant would, each in key
 * order. Each segment holds a permit; the table counts as read (DeleteTable defers, the drop waits)
 * until the last segment ends.
 *
 * @param description the storage layer's description at that instant, counts cleared [S2]
 * @param info        the backend's marker of the instant, one for every segment [L5]
 * @param keyOrdered  true: each segment's items arrive in {@code KeyOrder.compare} order, and every key of
 *                    a segment is below every key of the next [S3]
 * @param segments    the streams, lowest key range first; closing one releases its permit only
 * @param itemCount   the items of all segments together when the backend counted them at the instant
 */
public record SegmentedSnapshot(TableDescription description, SnapshotInfo info, boolean keyOrdered,
                                List<ItemStream> segments, OptionalLong itemCount) implements AutoCloseable {

    /**
     * Copies the segments; refuses a missing part.
     *
     * @param description the description at the instant
     * @param info        the instant's marker
     * @param keyOrdered  whether segments are key ranges in key order
     * @param segments    the streams, lowest key range first
     * @param itemCount   the items' count at the instant, or empty
     */
    public SegmentedSnapshot {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(info, "info");
        segments = List.copyOf(segments);
        Objects.requireNonNull(itemCount, "itemCount");
    }

    /** Closes every segment still open (each gives its permit back; the last ends the table's read). */
    @Override
    public void close() {
        segments.forEach(ItemStream::close);
    }
}

package dev.stillpoint.ports.out;

import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;

/**
 * The third step of a snapshot open: the instant is pinned; nothing of the items is read yet. Its one
 * way on is {@link #pages(StoredKeys)}, which hands the read over to the stream.
 */
public interface PinnedRead extends AutoCloseable {

    /**
     * The marker of the snapshot's instant.
     *
     * @return the pinned instant's marker
     */
    SnapshotInfo info();

    /**
     * Whether the items will arrive in key order [S3].
     *
     * @return true when pages come in key order
     */
    boolean keyOrdered();

    /**
     * The number of items at the pinned instant when the backend counts them cheaply in the read itself
     * (an export's progress shows it as an exact total); empty when it does not.
     *
     * @return the items the pages will yield, or empty
     */
    default java.util.OptionalLong itemCount() {
        return java.util.OptionalLong.empty();
    }

    /**
     * Hands the read over as a page source, which then holds everything this step held; when it
     * throws, this step still holds it.
     *
     * @param storedKeys whether each item carries the key its backend stores it under; a backend whose
     *                   items are their own keys ignores it
     * @return the read's items as pages
     */
    PageSource pages(StoredKeys storedKeys);

    /**
     * Hands the read over as {@code count} page sources over disjoint key ranges of the pinned instant,
     * lowest range first, whose union is exactly what {@link #pages} would yield, each in key order
     * [B2]; the sources then hold everything this step held (see {@link SegmentSources}). When it throws,
     * this step still holds it all and no source is left open. A backend without segments refuses
     * Unsupported (the default).
     *
     * @param count      the number of segments, at least 1
     * @param storedKeys whether each item carries the key its backend stores it under
     * @return the segments' page sources and their shared read
     */
    default SegmentSources segments(int count, StoredKeys storedKeys) {
        throw dev.stillpoint.domain.error.StorageException.unsupported("this backend",
                "it serves no segmented snapshot [B2]");
    }

    /** Ends the read when the open fails or is cancelled after the pin, before the hand-over. */
    @Override
    void close();
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;

/**
 * A snapshot being opened: the backend's read transaction or session, from its first read to the
 * hand-over of its pages. The shared machinery calls the methods in order, with the pauses between.
 */
public interface ReadWindow extends AutoCloseable {

    /**
     * Reads the table's definition inside the window; TableNotFound when it has no row.
     *
     * @return the table's description as of the snapshot
     */
    TableDescription readDefinition();

    /**
     * Fixes the instant (if the definition read did not already) and returns its marker.
     *
     * @return the marker of the snapshot's instant
     */
    SnapshotInfo pin();

    /**
     * Whether the items will arrive in key order [S3].
     *
     * @return true when pages come in key order
     */
    boolean keyOrdered();

    /**
     * Hands the window over as a page source; after this, {@link #close()} is not called.
     *
     * @return the window's items as pages
     */
    PageSource pages();

    /** Ends the window when the open fails or is cancelled. */
    @Override
    void close();
}

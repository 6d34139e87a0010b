package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.TableDescription;

/**
 * One consistent view of a table [S1]: its description and every item from one instant.
 *
 * @param description the storage layer's description at that instant, counts and throughput summary cleared [S2]
 * @param info        the backend's marker of the instant
 * @param keyOrdered  true only when items really arrive in {@code KeyOrder.compare} order [S3]
 * @param items       the items; closing it (or this snapshot) releases the lease
 */
public record TableSnapshot(TableDescription description, SnapshotInfo info, boolean keyOrdered, ItemStream items)
        implements AutoCloseable {

    @Override
    public void close() {
        items.close();
    }
}

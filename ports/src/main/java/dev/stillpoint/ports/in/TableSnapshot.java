package dev.stillpoint.ports.in;

import dev.stillpoint.domain.table.TableDescription;

/**
 * One consistent view of a table [S1]: its description and every item from one instant.
 *
 * @param description the storage layer's description at that instant, counts and throughput summary cleared [S2]
 * @param info        the backend's marker of the instant
 * @param keyOrdered  true only when items really arrive in {@code KeyOrder.compare} order [S3]
 * @param items       the items; closing it (or this snapshot) releases the lease
 * @param itemCount   how many items {@code items} yields, when the backend counted them at the same instant
 *                    (SQLite does, in the snapshot's read transaction); empty otherwise. The description's
 *                    ItemCount is cleared [S2], so this is the only exact count a snapshot carries.
 */
public record TableSnapshot(TableDescription description, SnapshotInfo info, boolean keyOrdered, ItemStream items,
                            java.util.OptionalLong itemCount) implements AutoCloseable {

    /**
     * Refuses a missing count (an unknown one is empty).
     *
     * @param description the storage layer's description at that instant
     * @param info        the backend's marker of the instant
     * @param keyOrdered  true only when items really arrive in key order
     * @param items       the items
     * @param itemCount   the items' count at that instant, or empty
     */
    public TableSnapshot {
        java.util.Objects.requireNonNull(itemCount, "itemCount");
    }

    /**
     * A snapshot whose backend did not count its items.
     *
     * @param description the storage layer's description at that instant
     * @param info        the backend's marker of the instant
     * @param keyOrdered  true only when items really arrive in key order
     * @param items       the items
     */
    public TableSnapshot(TableDescription description, SnapshotInfo info, boolean keyOrdered, ItemStream items) {
        this(description, info, keyOrdered, items, java.util.OptionalLong.empty());
    }

    @Override
    public void close() {
        items.close();
    }
}

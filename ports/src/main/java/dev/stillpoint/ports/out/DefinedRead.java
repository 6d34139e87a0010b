package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;

/**
 * The second step of a snapshot open: the definition is read, inside the read. The engine decides
 * from {@link #description()} whether the table may be snapshotted; its one way on is {@link #pin()}.
 */
public interface DefinedRead extends AutoCloseable {

    /**
     * The table's description as of the snapshot, as the adapter stores it (any status: refusing a
     * table that is not ACTIVE is the engine's decision).
     *
     * @return the description read
     */
    TableDescription description();

    /**
     * Fixes the instant (if the definition read did not already) and makes the table's relations or
     * collections stay readable for the stream. The returned step holds everything this one held that
     * the stream needs (and this one gives back the rest); when it throws, this one still holds it all.
     *
     * @return the next step, holding the instant's marker and the items' order
     */
    PinnedRead pin();

    /** Ends the read when the open fails or is cancelled between the definition and the pin. */
    @Override
    void close();
}

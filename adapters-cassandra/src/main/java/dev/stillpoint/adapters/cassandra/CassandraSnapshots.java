package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.ports.in.StorageCapabilities;

/**
 * Why Cassandra's snapshot engine refuses every open, by design [C1]. No read fixes an instant
 * across a Cassandra table: a full scan is a sequence of token-range reads, each seeing its range at
 * a different time, and a lightweight transaction serialises one partition only. The refusal
 * comes before the table is resolved (the core's {@code UnsupportedSnapshots}, which
 * {@code InlineStorageFacade} serves, holds no session and reads nothing), so an existing and a missing table get the same answer, and no permit, connection or
 * read is taken.
 */
final class CassandraSnapshots {

    /** The backend the refusal names. */
    static final String BACKEND = "Cassandra";

    /** Why: the sentence the Unsupported error carries. */
    static final String WHY = "consistent table snapshots (openTableSnapshot): no read fixes an instant across"
            + " a Cassandra table; a full scan reads each token range at a different time, and a lightweight"
            + " transaction serialises a single partition only";

    /** Cassandra's capabilities: no snapshots, for {@link #WHY}. */
    static final StorageCapabilities CAPABILITIES = StorageCapabilities.withoutSnapshots(BACKEND, WHY);

    private CassandraSnapshots() {
    }
}

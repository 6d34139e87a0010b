package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableSnapshot;

/**
 * Cassandra's snapshot engine: it refuses every open, by design [C1]. No read fixes an instant
 * across a Cassandra table: a full scan is a sequence of token-range reads, each seeing its range at
 * a different time, and a lightweight transaction serialises one partition only. The refusal
 * comes before the table is resolved (this class holds no session and reads nothing), so an
 * existing and a missing table get the same answer, and no permit, connection or read is taken.
 */
public final class CassandraSnapshots implements SnapshotEngine {

    /** The backend the refusal names. */
    public static final String BACKEND = "Cassandra";

    /** Why: the sentence the Unsupported error carries. */
    public static final String WHY = "consistent table snapshots (openTableSnapshot): no read fixes an instant across"
            + " a Cassandra table; a full scan reads each token range at a different time, and a lightweight"
            + " transaction serialises a single partition only";

    @Override
    public TableSnapshot openTableSnapshot(String accountId, String tableName) {
        throw StorageException.unsupported(BACKEND, WHY);
    }
}

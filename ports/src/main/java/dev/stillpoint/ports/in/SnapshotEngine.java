package dev.stillpoint.ports.in;

/**
 * Opens a consistent snapshot of one table [S1-S7]. Errors, all {@code StorageException}:
 * TableNotFound for a missing table; ResourceInUse for a table that is not ACTIVE;
 * LimitExceeded at once when every permit is out [D7]; Unsupported on a backend with no read that
 * fixes an instant (Cassandra answers it before it looks the table up [C1]); SnapshotExpired when
 * the server discards the snapshot before the stream drained.
 */
public interface SnapshotEngine {

    /**
     * The table's description and a stream of every item, from one instant; the items carry no
     * stored key ({@link StoredKeys#OMITTED}).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the snapshot; close it to return its permit
     */
    default TableSnapshot openTableSnapshot(String accountId, String tableName) {
        return openTableSnapshot(accountId, tableName, StoredKeys.OMITTED);
    }

    /**
     * The table's description and a stream of every item, from one instant, each item carrying its
     * stored key when {@code storedKeys} asks for it and the backend keeps one [E1].
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param storedKeys whether the items carry their stored keys
     * @return the snapshot; close it to return its permit
     */
    TableSnapshot openTableSnapshot(String accountId, String tableName, StoredKeys storedKeys);

    /**
     * The table's description and {@code segments} streams over disjoint key ranges of ONE instant
     * [B2], whose union is exactly what {@link #openTableSnapshot(String, String, StoredKeys)} yields, each
     * in key order; each segment holds a permit, all or none: LimitExceeded naming the count when the
     * free permits are fewer. VALIDATION for fewer than one segment; Unsupported on a backend whose
     * {@link StorageCapabilities#segments()} is {@link SegmentSharing#NONE} (the default) or for a table
     * whose key has no order to cut into ranges.
     *
     * @param accountId  the account the table belongs to
     * @param tableName  the table's name
     * @param storedKeys whether the items carry their stored keys
     * @param segments   how many streams, at least 1
     * @return the segmented snapshot; close it (or each segment) to return the permits
     */
    default SegmentedSnapshot openTableSnapshot(String accountId, String tableName, StoredKeys storedKeys,
                                                int segments) {
        throw dev.stillpoint.domain.error.StorageException.unsupported("this backend",
                "it serves no segmented snapshot [B2]");
    }
}

package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import java.util.Objects;

/**
 * The snapshot engine of a backend that cannot take consistent snapshots: every open is refused as
 * Unsupported, naming the backend and why, before the table is resolved [C1]. It holds no session,
 * permit or connection, so an existing and a missing table get the same answer and nothing is taken.
 */
public final class UnsupportedSnapshots implements SnapshotEngine {

    private final String backend;
    private final String why;

    /**
     * An engine refusing every open on {@code backend}, for the reason {@code why}.
     *
     * @param backend the backend's name, for the Unsupported error
     * @param why why the backend cannot open a snapshot
     */
    public UnsupportedSnapshots(String backend, String why) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.why = Objects.requireNonNull(why, "why");
    }

    @Override
    public TableSnapshot openTableSnapshot(String accountId, String tableName, StoredKeys storedKeys) {
        throw StorageException.unsupported(backend, why);
    }
}

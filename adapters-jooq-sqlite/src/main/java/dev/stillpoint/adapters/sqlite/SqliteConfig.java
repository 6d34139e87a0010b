package dev.stillpoint.adapters.sqlite;

import dev.stillpoint.core.BackendConfig;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How to open a SQLite engine: the file and its connections, and the settings every backend shares
 * ({@link BackendConfig}: page budget, poller cadence, hooks, clock, idle limits, events, change log retention).
 *
 * @param file               the database file; empty for an in-memory database (one connection)
 * @param readConnections    pooled read connections of a file database; snapshots may hold half [D7, Q2]
 * @param snapshotPermits    permits for long readers (snapshots and backups), the same setting as
 *                           MongoDB's; for a file database at most half the read connections, so
 *                           requests always find a connection
 * @param busyTimeout        how long a statement waits for SQLite's write lock
 * @param controlPlaneDelay  overrides the catalog's {@code control_plane_delay_ms} when present
 * @param coreSettings       the settings every backend shares, read by the core
 */
public record SqliteConfig(Optional<Path> file, int readConnections, int snapshotPermits, Duration busyTimeout,
                           Optional<Duration> controlPlaneDelay, CoreSettings coreSettings)
        implements BackendConfig<SqliteConfig> {

    private static final String NO_FILE = "the database file must be given, got null (SqliteConfig.inMemory() is an"
            + " in-memory database)";

    public SqliteConfig {
        if (file == null) {
            throw StorageException.validation(NO_FILE);
        }
        if (busyTimeout == null || busyTimeout.isNegative()) {
            throw StorageException.validation("busyTimeout must be zero or more, got " + busyTimeout);
        }
        if (controlPlaneDelay == null) {
            throw StorageException.validation("the control-plane delay must be given, got null");
        }
        if (readConnections < 1) {
            throw StorageException.validation("readConnections must be at least 1, got " + readConnections);
        }
        if (snapshotPermits < 1) {
            throw StorageException.validation("snapshotPermits must be at least 1, got " + snapshotPermits);
        }
        if (file.isPresent() && snapshotPermits > Math.max(1, readConnections / 2)) {
            throw StorageException.validation("snapshotPermits " + snapshotPermits + " exceeds half of the "
                    + readConnections + " read connections");
        }
        controlPlaneDelay.ifPresent(d -> {
            if (d.isNegative()) {
                throw StorageException.validation("control-plane delay must not be negative, got " + d);
            }
        });
        coreSettings = coreSettings == null ? CoreSettings.DEFAULT : coreSettings;
    }

    /** A file database with ten read connections (five snapshot permits) and production defaults. */
    public static SqliteConfig file(Path file) {
        if (file == null) {
            throw StorageException.validation(NO_FILE);
        }
        return new SqliteConfig(Optional.of(file), 10, 5, Duration.ofSeconds(5), Optional.empty(), CoreSettings.DEFAULT);
    }

    /** An in-memory database: one connection; snapshots copy the table and hold a slot, not a connection [Q4]. */
    public static SqliteConfig inMemory() {
        return new SqliteConfig(Optional.empty(), 1, 2, Duration.ofSeconds(5), Optional.empty(), CoreSettings.DEFAULT);
    }

    @Override
    public SqliteConfig withCoreSettings(CoreSettings settings) {
        return new SqliteConfig(file, readConnections, snapshotPermits, busyTimeout, controlPlaneDelay, settings);
    }

    /**
     * The same config with the catalog's control-plane delay overridden [D4].
     *
     * @param delay how long a new table stays CREATING; not negative
     * @return the config with it
     */
    public SqliteConfig withControlPlaneDelay(Duration delay) {
        if (delay == null) {
            throw StorageException.validation("the control-plane delay must be given, got null");
        }
        return new SqliteConfig(file, readConnections, snapshotPermits, busyTimeout, Optional.of(delay), coreSettings);
    }

    /** With {@code connections} pooled read connections and {@code permits} snapshot permits (at most half of them). */
    public SqliteConfig withPool(int connections, int permits) {
        return new SqliteConfig(file, connections, permits, busyTimeout, controlPlaneDelay, coreSettings);
    }

    /** With {@code permits} snapshot permits, as {@code MongoConfig.withSnapshotPermits}; at most half the read connections. */
    public SqliteConfig withSnapshotPermits(int permits) {
        return withPool(readConnections, permits);
    }
}

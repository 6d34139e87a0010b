package dev.stillpoint.adapters.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.event.CommandListener;
import dev.stillpoint.core.BackendConfig;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How to reach MongoDB and how the adapter behaves; beside its own settings it holds those every backend
 * shares ({@link BackendConfig}: page budget, which is also the cursor's batch size [S7], poller cadence,
 * hooks, clock, idle limits, events).
 *
 * @param connectionString  a {@code mongodb://} or {@code mongodb+srv://} URI; snapshots need a replica set
 *                          (or sharded cluster) member, a standalone answers Unsupported [M2]
 * @param catalogDatabase   the database of the catalog collections ({@code sp_tables}, {@code sp_indexes}, ...)
 * @param dataDatabase      the database of the data collections ({@code d_<id>...}); may equal the catalog's
 * @param snapshotPermits   snapshots open at once (the same setting as SQLite's); the next open is
 *                          LimitExceeded at once [D7]. Each holds a session, a server cursor and the
 *                          server's snapshot history, not a pooled connection
 * @param controlPlaneDelay how long a new table stays CREATING [D4]
 * @param commandListeners  driver command listeners (the kit's round-trip counter watches commands this way)
 * @param coreSettings      the settings every backend shares, read by the core
 */
public record MongoConfig(String connectionString, String catalogDatabase, String dataDatabase, int snapshotPermits,
                          Duration controlPlaneDelay, List<CommandListener> commandListeners, CoreSettings coreSettings)
        implements BackendConfig<MongoConfig> {

    /** A database name MongoDB accepts on every platform: no {@code /\. "$*<>:|?}, at most 63 bytes. */
    private static final Pattern DATABASE = Pattern.compile("[A-Za-z0-9_-]{1,63}");

    public MongoConfig {
        if (connectionString == null || connectionString.isBlank()) {
            throw StorageException.validation("a MongoDB connection string is required");
        }
        try {
            new ConnectionString(connectionString);
        } catch (IllegalArgumentException e) {
            throw StorageException.validation("MongoDB connection string is not valid: " + e.getMessage());
        }
        requireDatabase(catalogDatabase, "catalog");
        requireDatabase(dataDatabase, "data");
        if (snapshotPermits < 1) {
            throw StorageException.validation("snapshotPermits must be at least 1, got " + snapshotPermits);
        }
        if (controlPlaneDelay == null || controlPlaneDelay.isNegative()) {
            throw StorageException.validation("control-plane delay must not be negative, got " + controlPlaneDelay);
        }
        commandListeners = List.copyOf(commandListeners);
        coreSettings = coreSettings == null ? CoreSettings.DEFAULT : coreSettings;
    }

    private static void requireDatabase(String name, String what) {
        if (name == null || !DATABASE.matcher(name).matches()) {
            throw StorageException.validation(what + " database name must be 1-63 characters of [A-Za-z0-9_-], got "
                    + (name == null ? "null" : "'" + name + "'"));
        }
    }

    /** Production defaults: databases {@code stillpoint_catalog} and {@code stillpoint_data}, 16 snapshots. */
    public static MongoConfig of(String connectionString) {
        return new MongoConfig(connectionString, "stillpoint_catalog", "stillpoint_data", 16, Duration.ofMillis(250),
                List.of(), CoreSettings.DEFAULT);
    }

    @Override
    public MongoConfig withCoreSettings(CoreSettings settings) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, controlPlaneDelay,
                commandListeners, settings);
    }

    /**
     * The same config with other databases.
     *
     * @param catalog the catalog collections' database
     * @param data    the data collections' database; may equal the catalog's
     * @return the config with them
     */
    public MongoConfig withDatabases(String catalog, String data) {
        return new MongoConfig(connectionString, catalog, data, snapshotPermits, controlPlaneDelay, commandListeners,
                coreSettings);
    }

    /** With {@code max} snapshots open at once, as {@code SqliteConfig.withSnapshotPermits}. */
    public MongoConfig withSnapshotPermits(int max) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, max, controlPlaneDelay, commandListeners,
                coreSettings);
    }

    /**
     * The same config with another control-plane delay [D4].
     *
     * @param delay how long a new table stays CREATING; not negative
     * @return the config with it
     */
    public MongoConfig withControlPlaneDelay(Duration delay) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, delay, commandListeners,
                coreSettings);
    }

    /**
     * The same config with one more driver command listener.
     *
     * @param listener told of every command the driver sends
     * @return the config with it
     */
    public MongoConfig withCommandListener(CommandListener listener) {
        List<CommandListener> all = new ArrayList<>(commandListeners);
        all.add(listener);
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, controlPlaneDelay, all,
                coreSettings);
    }

    /** The settings with the URI's credentials and options left out, so a logged config never shows a password. */
    @Override
    public String toString() {
        return "MongoConfig[" + redactedConnectionString() + ", catalog " + catalogDatabase + ", data " + dataDatabase
                + ", snapshotPermits " + snapshotPermits + ", controlPlaneDelay " + controlPlaneDelay + ", "
                + coreSettings + "]";
    }

    /** The URI without credentials or options (scheme and hosts), for messages and logs. */
    public String redactedConnectionString() {
        ConnectionString parsed = new ConnectionString(connectionString);
        return (parsed.isSrvProtocol() ? "mongodb+srv://" : "mongodb://") + String.join(",", parsed.getHosts());
    }
}

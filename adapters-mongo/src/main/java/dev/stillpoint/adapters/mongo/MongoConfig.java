package dev.stillpoint.adapters.mongo;

import dev.stillpoint.core.CoreSettings;
import com.mongodb.ConnectionString;
import com.mongodb.event.CommandListener;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import dev.stillpoint.ports.out.StorageEvents;

/**
 * How to reach MongoDB and how the adapter behaves.
 *
 * @param connectionString  a {@code mongodb://} or {@code mongodb+srv://} URI; snapshots need a replica set
 *                          (or sharded cluster) member, a standalone answers Unsupported [M2]
 * @param catalogDatabase   the database of the catalog collections ({@code sp_tables}, {@code sp_indexes}, ...)
 * @param dataDatabase      the database of the data collections ({@code d_<id>...}); may equal the catalog's
 * @param snapshotPermits   snapshots open at once (the same setting as SQLite's); the next open is
 *                          LimitExceeded at once [D7]. Each holds a session, a server cursor and the
 *                          server's snapshot history, not a pooled connection
 * @param pageBudget        rows and bytes per page, and the cursor's batch size [S7]
 * @param controlPlaneDelay how long a new table stays CREATING [D4]
 * @param pollerSchedule    the control-plane poller's cadence [D8]
 * @param observer          test hooks (pauses); {@link ReadObserver#NONE} in production
 * @param commandListeners  driver command listeners (the kit's round-trip counter watches commands this way)
 * @param time              the clock
 * @param snapshotIdleLimit how long a snapshot stream may go without a page fetch before the engine ends
 *                          its session and returns its permit (the stream then fails SnapshotExpired) [L1];
 *                          default 60 s, from 100 ms to one day
 * @param restoreIdleLimit  how long a restore may give no sign of life before any opening's poller takes it
 *                          for dead and removes its table [E5]; default 60 s, from 1 s to one day
 * @param events            told what the storage does, for an embedder's metrics [X1] (permits, leases,
 *                          passes, writes, restored items), as on SQLite and PostgreSQL; none by default
 */
public record MongoConfig(String connectionString, String catalogDatabase, String dataDatabase, int snapshotPermits,
                          PageBudget pageBudget, Duration controlPlaneDelay, PollerSchedule pollerSchedule,
                          ReadObserver observer, List<CommandListener> commandListeners, TimeSource time,
                          Duration snapshotIdleLimit, Duration restoreIdleLimit, StorageEvents events) {

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
        new IdleLimit(snapshotIdleLimit);
        new RestoreIdleLimit(restoreIdleLimit);
        events = events == null ? StorageEvents.NONE : events;
    }

    private static void requireDatabase(String name, String what) {
        if (name == null || !DATABASE.matcher(name).matches()) {
            throw StorageException.validation(what + " database name must be 1-63 characters of [A-Za-z0-9_-], got "
                    + (name == null ? "null" : "'" + name + "'"));
        }
    }

    /** Production defaults: databases {@code stillpoint_catalog} and {@code stillpoint_data}, 16 snapshots. */
    public static MongoConfig of(String connectionString) {
        return new MongoConfig(connectionString, "stillpoint_catalog", "stillpoint_data", 16, PageBudget.DEFAULT,
                Duration.ofMillis(250), PollerSchedule.DEFAULT, ReadObserver.NONE, List.of(), TimeSource.SYSTEM,
                IdleLimit.DEFAULT_DURATION, RestoreIdleLimit.DEFAULT_DURATION, StorageEvents.NONE);
    }

    public MongoConfig withDatabases(String catalog, String data) {
        return new MongoConfig(connectionString, catalog, data, snapshotPermits, pageBudget, controlPlaneDelay,
                pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    /** With {@code max} snapshots open at once, as {@code SqliteConfig.withSnapshotPermits}. */
    public MongoConfig withSnapshotPermits(int max) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, max, pageBudget, controlPlaneDelay,
                pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    public MongoConfig withPageBudget(PageBudget budget) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, budget, controlPlaneDelay,
                pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    public MongoConfig withControlPlaneDelay(Duration delay) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget, delay,
                pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    public MongoConfig withObserver(ReadObserver hooks) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget,
                controlPlaneDelay, pollerSchedule, hooks, commandListeners, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    public MongoConfig withCommandListener(CommandListener listener) {
        List<CommandListener> all = new ArrayList<>(commandListeners);
        all.add(listener);
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, all, time, snapshotIdleLimit, restoreIdleLimit, events);
    }

    /** The same config with another snapshot idle limit [L1]; validated, the error naming the value. */
    public MongoConfig withSnapshotIdleLimit(Duration limit) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, commandListeners, time, limit, restoreIdleLimit, events);
    }

    /** The same config with another restore idle limit [E5]; validated, the error naming the value. */
    public MongoConfig withRestoreIdleLimit(Duration limit) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, limit, events);
    }

    /**
     * The same config telling {@code events} what the storage does [X1], as {@code SqliteConfig.withEvents}.
     *
     * @param events the embedder's watcher, e.g. {@code metrics-micrometer}'s {@code StillpointMeters}
     * @return the config with {@code events}
     */
    public MongoConfig withEvents(StorageEvents events) {
        return new MongoConfig(connectionString, catalogDatabase, dataDatabase, snapshotPermits, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, commandListeners, time, snapshotIdleLimit, restoreIdleLimit,
                events);
    }

    /** The URI without credentials or options (scheme and hosts), for messages and logs. */
    public String redactedConnectionString() {
        ConnectionString parsed = new ConnectionString(connectionString);
        return (parsed.isSrvProtocol() ? "mongodb+srv://" : "mongodb://") + String.join(",", parsed.getHosts());
    }

    /**
     * The settings the core reads, as one record for {@code StorageCore}.
     *
     * @return this config's page budget, poller schedule, observer, clock, idle limits and events
     */
    public CoreSettings coreSettings() {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, new IdleLimit(snapshotIdleLimit),
                new RestoreIdleLimit(restoreIdleLimit), events);
    }
}

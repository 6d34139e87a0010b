package dev.stillpoint.adapters.postgres;

import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.util.Optional;

/**
 * How to open a PostgreSQL engine, in one of two layouts:
 * <ul>
 *   <li>shared: catalog and data relations in one database, one connection pool of {@code poolSize};</li>
 *   <li>separate: the catalog in {@code catalog}, the data relations in {@code data}, a pool each
 *       ({@code catalogPoolSize} and {@code poolSize}).</li>
 * </ul>
 * Open snapshots are bounded at half of {@code poolSize}, the pool their items come from [D7]; the
 * other half stays free for requests.
 *
 * @param catalog           the catalog database (the one database of the shared layout)
 * @param data              the data database of the separate layout; empty for the shared layout
 * @param poolSize          connections of the data pool (the one pool of the shared layout)
 * @param catalogPoolSize   connections of the catalog pool (separate layout only)
 * @param connectionTimeout how long a call waits for a pooled connection, and how long opening a new
 *                          connection may take (pgjdbc's connect and login timeouts), before it fails
 *                          Transient saying the database is unreachable [L3]; default 5 s, from 250 ms
 *                          to 10 minutes
 * @param pageBudget        rows and bytes per snapshot page [S7]
 * @param controlPlaneDelay overrides the catalog's {@code control_plane_delay_ms} when present
 * @param pollerSchedule    the control-plane poller's idle and active cadence [D8]
 * @param observer          test hooks (pauses, round trips); {@link ReadObserver#NONE} in production
 * @param time              the clock
 * @param snapshotIdleLimit how long a snapshot stream may go without a page fetch before the engine
 *                          ends its transaction and returns its permit (the stream then fails
 *                          SnapshotExpired) [L1]; default 60 s, from 100 ms to one day
 * @param restoreIdleLimit  how long a restore may give no sign of life before any opening's poller takes
 *                          it for dead and removes its table [E5]; default 60 s, from 1 s to one day
 * @param events             told what the storage does, for an embedder's metrics [X1];
 *                           {@link StorageEvents#NONE} by default (see {@code metrics-micrometer})
 * @param copyHook           a test hook run while a restore's COPY is open, its rows sent but the COPY not
 *                           ended (a test kills the process there [E5, B1]); may block; does nothing by default
 * @param changeLogRetention how long a table's change log keeps its changes, at least; the control plane
 *                           trims it past that [I4]; default a day
 */
public record PostgresConfig(Database catalog, Optional<Database> data, int poolSize, int catalogPoolSize,
                             Duration connectionTimeout, PageBudget pageBudget, Optional<Duration> controlPlaneDelay,
                             PollerSchedule pollerSchedule, ReadObserver observer, TimeSource time,
                             Duration snapshotIdleLimit, Duration restoreIdleLimit,
                             StorageEvents events, Runnable copyHook, Duration changeLogRetention) {

    /** The default {@link #connectionTimeout()}: a few seconds, so a call fails fast while the database is down [L3]. */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private static final Runnable NO_HOOK = () -> { };

    /** Where one database is. */
    public record Database(String jdbcUrl, String user, String password) {
        public Database {
            if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
                throw StorageException.validation("a PostgreSQL JDBC URL starts with jdbc:postgresql:, got " + jdbcUrl);
            }
        }

        /** The URL without its options (they may carry a password) and the user, never the password [L3]. */
        @Override
        public String toString() {
            int q = jdbcUrl.indexOf('?');
            return "Database[" + (q < 0 ? jdbcUrl : jdbcUrl.substring(0, q)) + ", user " + user + "]";
        }
    }

    public PostgresConfig {
        if (catalog == null) {
            throw StorageException.validation("the catalog database is required");
        }
        data = data == null ? Optional.empty() : data;
        if (poolSize < 2) {
            throw StorageException.validation("poolSize must be at least 2 (snapshots may hold half), got " + poolSize);
        }
        if (catalogPoolSize < 1) {
            throw StorageException.validation("catalogPoolSize must be at least 1, got " + catalogPoolSize);
        }
        if (connectionTimeout == null || connectionTimeout.toMillis() < 250 || connectionTimeout.toMinutes() > 10) {
            throw StorageException.validation("connectionTimeout must be from 250 ms to 10 minutes, got "
                    + (connectionTimeout == null ? "none" : connectionTimeout.toMillis() + " ms"));
        }
        events = events == null ? StorageEvents.NONE : events;
        copyHook = copyHook == null ? NO_HOOK : copyHook;
        changeLogRetention = changeLogRetention == null ? CoreSettings.DEFAULT_CHANGE_LOG_RETENTION : changeLogRetention;
        new IdleLimit(snapshotIdleLimit);
        new RestoreIdleLimit(restoreIdleLimit);
        controlPlaneDelay.ifPresent(d -> {
            if (d.isNegative()) {
                throw StorageException.validation("control-plane delay must not be negative, got " + d);
            }
        });
    }

    /** Catalog and data in one database; a ten-connection pool and production defaults. */
    public static PostgresConfig shared(Database database) {
        return new PostgresConfig(database, Optional.empty(), 10, 10, DEFAULT_CONNECTION_TIMEOUT, PageBudget.DEFAULT,
                Optional.empty(), PollerSchedule.DEFAULT, ReadObserver.NONE, TimeSource.SYSTEM,
                IdleLimit.DEFAULT_DURATION, RestoreIdleLimit.DEFAULT_DURATION, StorageEvents.NONE, NO_HOOK,
                CoreSettings.DEFAULT_CHANGE_LOG_RETENTION);
    }

    /** The catalog in one database, the data relations in another; ten connections each. */
    public static PostgresConfig separate(Database catalog, Database data) {
        return new PostgresConfig(catalog, Optional.of(data), 10, 10, DEFAULT_CONNECTION_TIMEOUT, PageBudget.DEFAULT,
                Optional.empty(), PollerSchedule.DEFAULT, ReadObserver.NONE, TimeSource.SYSTEM,
                IdleLimit.DEFAULT_DURATION, RestoreIdleLimit.DEFAULT_DURATION, StorageEvents.NONE, NO_HOOK,
                CoreSettings.DEFAULT_CHANGE_LOG_RETENTION);
    }

    /** Whether catalog and data share one database (and one pool). */
    public boolean sharedLayout() {
        return data.isEmpty();
    }

    public PostgresConfig withPoolSizes(int dataPool, int catalogPool) {
        return new PostgresConfig(catalog, data, dataPool, catalogPool, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withConnectionTimeout(Duration timeout) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, timeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withPageBudget(PageBudget budget) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, budget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withControlPlaneDelay(Duration delay) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                Optional.of(delay), pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withPollerSchedule(PollerSchedule schedule) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, schedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withObserver(ReadObserver hooks) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, hooks, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    public PostgresConfig withTime(TimeSource clock) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, clock, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    /** The same config with another snapshot idle limit [L1]; validated, the error naming the value. */
    public PostgresConfig withSnapshotIdleLimit(Duration limit) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, limit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    /** The same config with another restore idle limit [E5]; validated, the error naming the value. */
    public PostgresConfig withRestoreIdleLimit(Duration limit) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, limit, events, copyHook, changeLogRetention);
    }

    /**
     * The same config telling {@code events} what the storage does [X1]: permits, leases, passes,
     * deferred drops, pages streamed, writes and restored items.
     *
     * @param events the embedder's watcher, e.g. {@code metrics-micrometer}'s {@code StillpointMeters}
     * @return the config with it
     */
    public PostgresConfig withEvents(StorageEvents events) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook, changeLogRetention);
    }

    /**
     * The same config running {@code hook} while each COPY of a restore's bulk load is open, after its rows
     * were sent and before it ends: a test's pause, never a production setting.
     *
     * @param hook run on the restoring thread; may block
     * @return the config with it
     */
    public PostgresConfig withCopyHook(Runnable hook) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, hook, changeLogRetention);
    }

    /**
     * The settings the core reads, as one record for {@code StorageCore}.
     *
     * @return this config's page budget, poller schedule, observer, clock, idle limits and events
     */
    public CoreSettings coreSettings() {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, new IdleLimit(snapshotIdleLimit),
                new RestoreIdleLimit(restoreIdleLimit), events, changeLogRetention);
    }

    /**
     * The same config with another change log retention [I4]: the control plane trims each table's log past
     * it, and a marker older than the log kept is refused by name.
     *
     * @param retention how long a change log keeps its changes, at least; positive
     * @return the config with it
     */
    public PostgresConfig withChangeLogRetention(Duration retention) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, pageBudget,
                controlPlaneDelay, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, copyHook,
                retention);
    }
}

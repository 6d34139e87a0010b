package dev.stillpoint.adapters.sqlite;

import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How to open a SQLite engine.
 *
 * @param file               the database file; empty for an in-memory database (one connection)
 * @param readConnections    pooled read connections of a file database; snapshots may hold half [D7, Q2]
 * @param snapshotPermits    permits for long readers (snapshots and backups), the same setting as
 *                           MongoDB's; for a file database at most half the read connections, so
 *                           requests always find a connection
 * @param pageBudget         rows and bytes per snapshot page [S7]
 * @param busyTimeout        how long a statement waits for SQLite's write lock
 * @param controlPlaneDelay  overrides the catalog's {@code control_plane_delay_ms} when present
 * @param pollerSchedule     the control-plane poller's idle and active cadence [D8]
 * @param observer           test hooks (pauses, round trips); {@link ReadObserver#NONE} in production
 * @param time               the clock
 * @param snapshotIdleLimit  how long a snapshot stream may go without a page fetch before the engine
 *                           ends its read and frees its slot (the stream then fails SnapshotExpired)
 *                           [L1]; default 60 s, from 100 ms to one day
 * @param restoreIdleLimit   how long a restore may give no sign of life before any opening's poller takes
 *                           it for dead and removes its table [E5]; default 60 s, from 1 s to one day
 * @param events             told what the storage does, for an embedder's metrics [X1];
 *                           {@link StorageEvents#NONE} by default (see {@code metrics-micrometer})
 * @param changeLogRetention how long a table's change log keeps its changes, at least; the control plane
 *                           trims it past that [I4]; default a day
 */
public record SqliteConfig(Optional<Path> file, int readConnections, int snapshotPermits, PageBudget pageBudget,
                           Duration busyTimeout, Optional<Duration> controlPlaneDelay, PollerSchedule pollerSchedule,
                           ReadObserver observer, TimeSource time, Duration snapshotIdleLimit,
                           Duration restoreIdleLimit,
                           StorageEvents events, Duration changeLogRetention) {

    /**
     * The config as it was before the change log's retention [I4]: the retention is the default.
     *
     * @param file the database file, or empty for an in-memory database
     * @param readConnections read connections
     * @param snapshotPermits snapshot slots
     * @param pageBudget rows and bytes per page
     * @param busyTimeout SQLite's busy timeout
     * @param controlPlaneDelay the control-plane delay
     * @param pollerSchedule the poller's cadence
     * @param observer test hooks
     * @param time the clock
     * @param snapshotIdleLimit the snapshot idle limit
     * @param restoreIdleLimit the restore idle limit
     * @param events the embedder's watcher
     */
    public SqliteConfig(Optional<Path> file, int readConnections, int snapshotPermits, PageBudget pageBudget,
                        Duration busyTimeout, Optional<Duration> controlPlaneDelay, PollerSchedule pollerSchedule,
                        ReadObserver observer, TimeSource time, Duration snapshotIdleLimit, Duration restoreIdleLimit,
                        StorageEvents events) {
        this(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay, pollerSchedule, observer,
                time, snapshotIdleLimit, restoreIdleLimit, events, CoreSettings.DEFAULT_CHANGE_LOG_RETENTION);
    }


    public SqliteConfig {
        changeLogRetention = changeLogRetention == null ? CoreSettings.DEFAULT_CHANGE_LOG_RETENTION : changeLogRetention;
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
        events = events == null ? StorageEvents.NONE : events;
        new IdleLimit(snapshotIdleLimit);
        new RestoreIdleLimit(restoreIdleLimit);
        controlPlaneDelay.ifPresent(d -> {
            if (d.isNegative()) {
                throw StorageException.validation("control-plane delay must not be negative, got " + d);
            }
        });
    }

    /** A file database with ten read connections (five snapshot permits) and production defaults. */
    public static SqliteConfig file(Path file) {
        return new SqliteConfig(Optional.of(file), 10, 5, PageBudget.DEFAULT, Duration.ofSeconds(5),
                Optional.empty(), PollerSchedule.DEFAULT, ReadObserver.NONE, TimeSource.SYSTEM, IdleLimit.DEFAULT_DURATION,
                RestoreIdleLimit.DEFAULT_DURATION, StorageEvents.NONE);
    }

    /** An in-memory database: one connection; snapshots copy the table and hold a slot, not a connection [Q4]. */
    public static SqliteConfig inMemory() {
        return new SqliteConfig(Optional.empty(), 1, 2, PageBudget.DEFAULT, Duration.ofSeconds(5),
                Optional.empty(), PollerSchedule.DEFAULT, ReadObserver.NONE, TimeSource.SYSTEM, IdleLimit.DEFAULT_DURATION,
                RestoreIdleLimit.DEFAULT_DURATION, StorageEvents.NONE);
    }

    public SqliteConfig withPageBudget(PageBudget budget) {
        return new SqliteConfig(file, readConnections, snapshotPermits, budget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    public SqliteConfig withObserver(ReadObserver hooks) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, hooks, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    public SqliteConfig withControlPlaneDelay(Duration delay) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, Optional.of(delay),
                pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    /** With {@code connections} pooled read connections and {@code permits} snapshot permits (at most half of them). */
    public SqliteConfig withPool(int connections, int permits) {
        return new SqliteConfig(file, connections, permits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    /** With {@code permits} snapshot permits, as {@code MongoConfig.withSnapshotPermits}; at most half the read connections. */
    public SqliteConfig withSnapshotPermits(int permits) {
        return withPool(readConnections, permits);
    }

    public SqliteConfig withPollerSchedule(PollerSchedule schedule) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                schedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    /** The same config with another snapshot idle limit [L1]; validated, the error naming the value. */
    public SqliteConfig withSnapshotIdleLimit(Duration limit) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, limit, restoreIdleLimit, events, changeLogRetention);
    }

    /** The same config with another restore idle limit [E5]; validated, the error naming the value. */
    public SqliteConfig withRestoreIdleLimit(Duration limit) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, snapshotIdleLimit, limit, events, changeLogRetention);
    }

    /**
     * The same config telling {@code events} what the storage does [X1]: permits, leases, passes,
     * deferred drops, pages streamed, writes and restored items.
     *
     * @param events the embedder's watcher, e.g. {@code metrics-micrometer}'s {@code StillpointMeters}
     * @return the config with it
     */
    public SqliteConfig withEvents(StorageEvents events) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
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
     * The same config reading {@code clock}: the lifecycle, the leases, the poller and the change log's trim
     * take their time from it (a test's manual clock).
     *
     * @param clock the clock
     * @return the config with it
     */
    public SqliteConfig withTime(TimeSource clock) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, clock, snapshotIdleLimit, restoreIdleLimit, events, changeLogRetention);
    }

    /**
     * The same config with another change log retention [I4]: the control plane trims each table's log past
     * it, and a marker older than the log kept is refused by name.
     *
     * @param retention how long a change log keeps its changes, at least; positive
     * @return the config with it
     */
    public SqliteConfig withChangeLogRetention(Duration retention) {
        return new SqliteConfig(file, readConnections, snapshotPermits, pageBudget, busyTimeout, controlPlaneDelay,
                pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events, retention);
    }
}

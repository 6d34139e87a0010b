package dev.stillpoint.adapters.postgres;

import dev.stillpoint.adapters.postgres.engine.Deployment;
import dev.stillpoint.adapters.postgres.engine.OrphanSweep;
import dev.stillpoint.adapters.postgres.engine.PgBulkLoads;
import dev.stillpoint.adapters.postgres.engine.PgChangeLog;
import dev.stillpoint.adapters.postgres.engine.PgChangeLogTrim;
import dev.stillpoint.adapters.postgres.engine.PgFailures;
import dev.stillpoint.adapters.postgres.engine.PgLockProbe;
import dev.stillpoint.adapters.postgres.engine.Pools;
import dev.stillpoint.adapters.postgres.engine.PostgresCatalog;
import dev.stillpoint.adapters.postgres.engine.PostgresSnapshots;
import dev.stillpoint.adapters.postgres.engine.PostgresTables;
import dev.stillpoint.adapters.postgres.engine.Transactions;
import dev.stillpoint.adapters.postgres.schema.Migrations;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.core.snapshot.PermitLedger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Stillpoint on PostgreSQL: one object that opens the pools, migrates the catalog, runs the
 * control-plane poller, and offers the driving ports; or, opened with {@link #openReadOnly}, reads
 * an existing catalog and changes nothing. Close it to stop the poller and close every connection.
 */
public final class PostgresStorage implements Storage {

    /** What this backend offers, known before anything is opened: PostgreSQL: everything. */
    public static final StorageCapabilities CAPABILITIES = StorageCapabilities.full("PostgreSQL").withChangeLog()
            .withSegments(dev.stillpoint.ports.in.SegmentSharing.ACROSS_CONNECTIONS);

    static {
        // Before any opening renders SQL: jOOQ's logo and tip stay off unless the embedder set them.
        dev.stillpoint.sqlcatalog.JooqBanner.off();
    }

    private final Pools pools;
    private final PostgresCatalog catalog;
    private final LockProbe locks;
    private final OrphanSweep orphans;
    private final StorageCore core;
    private final ChangeLogReads changeLog;
    private final PassChore trim;

    private PostgresStorage(PostgresConfig config, boolean readOnly) {
        pools = new Pools(config, readOnly);
        String address = Pools.address(config.catalog().jdbcUrl());
        try {
            // One direct connection first: a wrong password or unknown database fails now, not after the timeout [O3].
            pools.probe();
        } catch (SQLException e) {
            pools.close();
            throw PgFailures.map("connecting to the PostgreSQL catalog at " + address, e);
        }
        try (Connection c = pools.catalog()) {
            // Another catalog's data database is refused before a migration could make it a catalog too [O1].
            Deployment.requireNotADataDatabase(c, address);
            if (readOnly) {
                requireCurrentSchema(c, address);
            } else {
                Migrations.bundled().apply(c);
            }
        } catch (SQLException | RuntimeException e) {
            pools.close();
            // Unreachable (08001) is Transient [L3]; the address never carries the URL's options or credentials.
            throw PgFailures.map((readOnly ? "reading" : "migrating") + " the PostgreSQL catalog at " + address, e);
        }
        Deployment deployment;
        try {
            // Before any control-plane work: a layout or data database other than the recorded one is refused [O1, O2].
            deployment = Deployment.establish(pools, config, readOnly, config.time().now().toEpochMilli());
        } catch (RuntimeException e) {
            pools.close();
            throw e;
        }
        CoreSettings settings = config.coreSettings();
        core = new StorageCore(settings, "stillpoint-pg-control-plane");
        // The catalog wakes the poller itself when a drop's data commit failed and its row was kept DELETING [L2].
        Transactions tx = new Transactions(pools);
        catalog = new PostgresCatalog(tx, config.time(), config.controlPlaneDelay(), core.wakeSignal());
        locks = new PgLockProbe(tx);
        orphans = new OrphanSweep(pools, deployment.catalogId());
        PostgresTables storage = new PostgresTables(catalog, tx);
        PostgresSnapshots snapshots = new PostgresSnapshots(pools);
        // Every pass trims the change logs past the retention [I4].
        trim = core.changeLogTrim(new PgChangeLogTrim(tx));
        // Every pass, the startup-recovery pass first, sweeps orphaned data relations before its drops [L2].
        // Half the pool the items come from, so open snapshots leave the rest to requests [D7].
        core.assemble(new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay, storage, storage, storage,
                List.of(new PassChore("orphan sweep", orphans::run), trim), settings.restoreIdleLimit())
                // Restores load through COPY [B1].
                .withBulkLoads(new PgBulkLoads(tx, config.copyHook())),
                snapshots, PermitPool.halfOf(pools.dataPoolSize()));
        changeLog = new PgChangeLog(snapshots);
        if (!readOnly) {
            core.start();
        }
    }

    /** Opens the pools, migrates the catalog and starts the control-plane poller (startup recovery first). */
    public static PostgresStorage open(PostgresConfig config) {
        return new PostgresStorage(config, false);
    }

    /**
     * Opens an existing catalog for reading only, as {@code SqliteStorage.openReadOnly} does [L4]:
     * describe, list, get and snapshots work, and a role with nothing but SELECT on the catalog and
     * data relations is enough. It writes nothing: every connection's transactions are READ ONLY at the
     * server (a write is refused UNSUPPORTED, SQLSTATE 25006), no migration runs, and no control-plane
     * work starts (no poller). On the separate layout a snapshot reads the catalog row without a row
     * lock and checks, once its data snapshot is pinned, that the row has not changed [P2].
     *
     * @param config the databases and settings
     * @return the read-only storage
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION naming the database when its catalog
     *     is missing or at another schema version than this build's (never migrated here)
     */
    public static PostgresStorage openReadOnly(PostgresConfig config) {
        return new PostgresStorage(config, true);
    }

    private static void requireCurrentSchema(Connection c, String address) {
        int found = Migrations.currentVersion(c);
        int latest = Migrations.bundled().latestVersion();
        if (found != latest) {
            throw StorageException.validation("the PostgreSQL database at " + address + (found == 0
                    ? " holds no Stillpoint catalog" : " holds a Stillpoint catalog at schema version " + found
                    + ", not this build's " + latest) + "; a read-only opening never migrates");
        }
    }

    /** Whether this storage was opened with {@link #openReadOnly}. */
    public boolean readOnly() {
        return pools.readOnly();
    }

    /** Create, describe, list, add a GSI, delete; put, get, delete items. */
    @Override
    public TableOperations tables() {
        return core.tables();
    }

    /**
     * Restores into new tables [E4, E5]. A restore killed with its process is removed by the next poller
     * pass of any opening on this catalog, once {@code restoreIdleLimit} has passed since its last sign of life.
     */
    @Override
    public TableRestores restores() {
        return core.restores();
    }

    /** Consistent table snapshots [P1-P5, S1-S7]. */
    @Override
    public StorageCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SnapshotEngine snapshots() {
        return core.snapshots();
    }

    /**
     * A table's changes between two snapshot markers [I2]: the new snapshot is opened as any snapshot is
     * (both layouts), its window the writes visible in it and not in the marker's snapshot.
     */
    @Override
    public ChangeLogReads changeLog() {
        return changeLog;
    }

    /**
     * Runs the change log trim now, as every control-plane pass does [I4]: each table's log gets a checkpoint
     * at this storage's clock and is cut at its newest checkpoint older than the retention
     * ({@link PostgresConfig#withChangeLogRetention}). One trim runs at a time, a pass's or this one.
     *
     * @throws StorageException UNSUPPORTED on a read-only opening, which writes nothing [L4]
     */
    public void trimChangeLogs() {
        if (readOnly()) {
            throw StorageException.unsupported("PostgreSQL", "a read-only opening trims no change log [L4]");
        }
        trim.work().run();
    }

    /** Who holds what on a table's relations [P10]. */
    public LockProbe locks() {
        return locks;
    }

    /** The permits open snapshots hold: half the data pool [D7]. */
    public PermitLedger snapshotPermits() {
        return core.permits();
    }

    /** Records that the table was restored, as a restore does; its description then carries the summary [S2]. */
    public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        String tableId = core.tables().describeTable(accountId, tableName).tableId();
        catalog.writeRestoreRecord(tableId, summary);
    }

    /** The poller's state, for diagnostics (IDLE, ACTIVE while a drop is deferred, ...). */
    public PollerState pollerState() {
        return core.pollerState();
    }

    /** Poller passes run so far, for diagnostics. */
    public long pollerPasses() {
        return core.pollerPasses();
    }

    /**
     * Drops data relations this catalog registered as its own whose table has no catalog row, and
     * returns their names; every poller pass (the startup pass too) runs it [L2, O1].
     */
    public java.util.List<String> sweepOrphanedRelations() {
        return orphans.run();
    }

    /** Connections borrowed from the pools now, by HikariCP's own count; 0 when the engine is idle. */
    public int borrowedConnections() {
        return pools.borrowed();
    }

    /** The drop port DeleteTable runs over; tests wrap it to act between its steps. */
    TableDropPort dropPort() {
        return catalog;
    }

    @Override
    public void close() {
        core.close();
        pools.close();
    }
}

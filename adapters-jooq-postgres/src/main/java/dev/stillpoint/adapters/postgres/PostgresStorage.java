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
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.core.CatalogClock;
import dev.stillpoint.core.StorageFacade;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TimeSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Stillpoint on PostgreSQL: one object that opens the pools, migrates the catalog, runs the
 * control-plane poller, and offers the driving ports; or, opened with {@link #openReadOnly}, reads
 * an existing catalog and changes nothing. Close it to stop the poller and close every connection.
 */
public final class PostgresStorage extends StorageFacade {

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
    private final ChangeLogReads changeLog;

    /**
     * The pools of an opening whose catalog is migrated (or checked) and whose deployment is established, and
     * its configuration telling the time by the catalog's clock ({@link CatalogClock}), measured on the way: every
     * stamp is written and judged by the server's clock, whichever host's process writes or judges it [E5].
     */
    private record Opening(Pools pools, Deployment deployment, PostgresConfig config) {
    }

    private PostgresStorage(PostgresConfig config, boolean readOnly) {
        this(readOnly, connect(config, readOnly));
    }

    private PostgresStorage(boolean readOnly, Opening opening) {
        super(CAPABILITIES, new StorageCore(opening.config().coreSettings(), "stillpoint-pg-control-plane"),
                opening.pools()::close);
        PostgresConfig config = opening.config();
        pools = opening.pools();
        // The catalog wakes the poller itself when a drop's data commit failed and its row was kept DELETING [L2].
        Transactions tx = new Transactions(pools);
        catalog = new PostgresCatalog(tx, config.time(), config.controlPlaneDelay(), core().wakeSignal());
        locks = new PgLockProbe(tx);
        orphans = new OrphanSweep(pools, opening.deployment().catalogId(), config.time());
        PostgresTables storage = new PostgresTables(catalog, tx);
        PostgresSnapshots snapshots = new PostgresSnapshots(pools);
        // Every pass trims the change logs past the retention [I4].
        PassChore trim = core().changeLogTrim(new PgChangeLogTrim(tx));
        // Every pass, the startup-recovery pass first, sweeps orphaned data relations before its drops [L2].
        // Half the pool the items come from, so open snapshots leave the rest to requests [D7].
        core().assemble(new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay, storage, storage, storage,
                List.of(new PassChore("orphan sweep", orphans::run), trim), config.coreSettings().restoreIdleLimit())
                // Restores load through COPY [B1].
                .withBulkLoads(new PgBulkLoads(tx, config.copyHook())),
                snapshots, PermitPool.halfOf(pools.dataPoolSize()));
        changeLog = new PgChangeLog(snapshots, config.coreSettings().observer());
        if (!readOnly) {
            core().start();
        }
    }

    /** Opens the pools, checks the connection, migrates (or, read-only, checks) the catalog and the deployment. */
    private static Opening connect(PostgresConfig config, boolean readOnly) {
        Pools pools;
        String address = Pools.address(config.catalog().jdbcUrl());
        try {
            // One direct connection first: a wrong password or unknown database fails now, not after the timeout [O3].
            pools = new Pools(config, readOnly);
        } catch (SQLException e) {
            // The cause names the database that failed, the catalog's or the data's.
            throw PgFailures.map("connecting to PostgreSQL", e);
        }
        CatalogClock clock;
        try (Connection c = pools.catalog()) {
            clock = catalogClock(c, config.time());
            // Another catalog's data database is refused before a migration could make it a catalog too [O1].
            Deployment.requireNotADataDatabase(c, address);
            if (readOnly) {
                requireCurrentSchema(c, address);
            } else {
                if (Migrations.currentVersion(c) == 0) {
                    Deployment.requireCatalogNamesFree(c, address);
                }
                Migrations.bundled().apply(c);
            }
        } catch (SQLException | RuntimeException e) {
            pools.close();
            // Unreachable (08001) is Transient [L3]; the address never carries the URL's options or credentials.
            throw PgFailures.map((readOnly ? "reading" : "migrating") + " the PostgreSQL catalog at " + address, e);
        }
        try {
            // Before any control-plane work: a layout or data database other than the recorded one is refused [O1, O2].
            return new Opening(pools, Deployment.establish(pools, config, readOnly, clock.now().toEpochMilli()),
                    config.withCoreSettings(config.coreSettings().withTime(clock)));
        } catch (RuntimeException e) {
            pools.close();
            throw e;
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

    /** {@code local} corrected to the catalog server's clock, read by one round trip on {@code c}. */
    private static CatalogClock catalogClock(Connection c, TimeSource local) throws SQLException {
        try (Statement s = c.createStatement()) {
            Instant before = local.now();
            try (ResultSet rs = s.executeQuery("SELECT clock_timestamp()")) {
                rs.next();
                Instant server = rs.getObject(1, OffsetDateTime.class).toInstant();
                return CatalogClock.measured(local, before, server, local.now());
            }
        }
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
    @Override
    public boolean readOnly() {
        return pools.readOnly();
    }

    /**
     * A table's changes between two snapshot markers [I2]: the new snapshot is opened as any snapshot is
     * (both layouts), its window the writes visible in it and not in the marker's snapshot.
     */
    @Override
    public ChangeLogReads changeLog() {
        return changeLog;
    }

    /** Who holds what on a table's relations [P10]. */
    public LockProbe locks() {
        return locks;
    }

    @Override
    protected void writeRestoreRecord(TableDescription table, RestoreSummary summary) {
        catalog.writeRestoreRecord(table.tableId(), summary);
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
}

package dev.stillpoint.adapters.sqlite;


import dev.stillpoint.adapters.sqlite.engine.Connections;
import dev.stillpoint.adapters.sqlite.engine.ReadOnlyFile;
import dev.stillpoint.adapters.sqlite.engine.SqliteCatalog;
import dev.stillpoint.adapters.sqlite.engine.SqliteSnapshots;
import dev.stillpoint.adapters.sqlite.engine.SqliteTables;
import dev.stillpoint.adapters.sqlite.schema.Migrations;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.core.TableService;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.lifecycle.ControlPlanePass;
import dev.stillpoint.ports.lifecycle.StatisticsRefresh;
import dev.stillpoint.ports.lifecycle.ControlPlanePoller;
import dev.stillpoint.ports.lifecycle.TableCreation;
import dev.stillpoint.ports.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.ports.snapshot.PermitLedger;
import java.lang.ref.Cleaner;
import java.nio.file.Path;

/**
 * Stillpoint on SQLite, the embedded default: one object that opens (and migrates) the database,
 * runs the control-plane poller, and offers the driving ports; or, opened with {@link #openReadOnly},
 * reads an existing database and changes nothing. Close it to stop the poller and
 * close every connection.
 */
public final class SqliteStorage implements AutoCloseable {

    private final Connections connections;
    private final SqliteCatalog catalog;
    private final TableOperations tables;
    private final LeasedSnapshotEngine snapshots;
    private final PermitLedger slots;
    private final ControlPlanePoller poller;

    private final boolean readOnly;

    private SqliteStorage(SqliteConfig config, boolean readOnly) {
        this.readOnly = readOnly;
        if (readOnly) {
            Path file = config.file().orElseThrow(() -> StorageException.validation(
                    "a read-only opening needs a database file; an in-memory database has nothing to read"));
            connections = new Connections(config, ReadOnlyFile.check(file, Connections.readOnlySettings(config)));
        } else {
            connections = new Connections(config);
            try (Connections.Borrowed w = connections.write()) {
                Migrations.bundled().apply(w.connection());
            } catch (RuntimeException e) {
                connections.close();
                throw e instanceof StorageException s ? s : StorageException.internal(
                        "cannot migrate SQLite database: " + e.getMessage(), e);
            }
        }
        catalog = new SqliteCatalog(connections, config.time(), config.controlPlaneDelay());
        ControlPlanePoller[] wake = new ControlPlanePoller[1];
        TableDeletion deletion = new TableDeletion(catalog, config.time(), () -> wake[0].wake(), catalog::controlPlaneDelay);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, config.time());
        SqliteTables storage = new SqliteTables(catalog);
        // ItemCount and TableSizeBytes are recounted on the first pass and every few minutes after.
        StatisticsRefresh statistics = new StatisticsRefresh(storage, config.time(), StatisticsRefresh.DEFAULT_INTERVAL);
        poller = new ControlPlanePoller(config.pollerSchedule(), () -> {
            statistics.runIfDue();
            return pass.run();
        }, config.time(), "stillpoint-sqlite-control-plane");
        wake[0] = poller;
        tables = new TableService(storage, storage, new TableCreation(catalog, config.time(), poller), deletion);
        slots = new PermitLedger(PermitPool.withCapacity(config.snapshotSlots()));
        snapshots = new LeasedSnapshotEngine(new SqliteSnapshots(connections, config.pageBudget()), slots, poller,
                config.pageBudget(), config.observer(), Cleaner.create(), new IdleLimit(config.snapshotIdleLimit()));
        if (!readOnly) {
            poller.start();
        }
    }

    /** Opens the database (creating and migrating it if needed) and starts the control-plane poller. */
    public static SqliteStorage open(SqliteConfig config) {
        return new SqliteStorage(config, false);
    }

    /**
     * Opens an existing database for reading only [L4]: describe, list, get and snapshots work; every
     * write (put, delete, create, DeleteTable) is refused UNSUPPORTED. It writes nothing: connections open
     * with {@code SQLITE_OPEN_READONLY} ({@code mode=ro}), no migration runs, no pragma that persists is
     * set (the journal mode is left as found), and no control-plane work starts (no poller: a DELETING
     * table keeps its data until a read-write opening drops it). See {@link ReadOnlyFile} for what a
     * WAL-mode file needs beside it ({@code -wal}, {@code -shm}).
     *
     * @throws StorageException VALIDATION naming the file when it is not a Stillpoint database (no
     *     {@code sp_schema_version}) or is at another schema version than this build's (never migrated
     *     here); INTERNAL when SQLite cannot open it (missing file, no permission)
     */
    public static SqliteStorage openReadOnly(SqliteConfig config) {
        return new SqliteStorage(config, true);
    }

    /** Whether this storage was opened with {@link #openReadOnly}. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Create, describe, list, add a GSI, delete; put, get, delete items. */
    public TableOperations tables() {
        return tables;
    }

    /** Consistent table snapshots [Q1-Q4]. */
    public SnapshotEngine snapshots() {
        return snapshots;
    }

    /** Who holds what on a table's relations: always nothing under WAL. */
    public LockProbe locks() {
        return catalog;
    }

    /** The long-reader slots snapshots share with backups [Q2]. */
    public PermitLedger longReaderSlots() {
        return slots;
    }

    /** Records that the table was restored, as a restore does; its description then carries the summary [S2]. */
    public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        String tableId = tables.describeTable(accountId, tableName).tableId();
        catalog.writeRestoreRecord(tableId, summary);
    }

    @Override
    public void close() {
        poller.close();
        snapshots.close();
        connections.close();
    }
}

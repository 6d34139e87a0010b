package dev.stillpoint.adapters.sqlite;


import dev.stillpoint.adapters.sqlite.engine.Connections;
import dev.stillpoint.adapters.sqlite.engine.FileContents;
import dev.stillpoint.adapters.sqlite.engine.ReadOnlyFile;
import dev.stillpoint.adapters.sqlite.engine.SqliteCatalog;
import dev.stillpoint.adapters.sqlite.engine.SqliteChangeLog;
import dev.stillpoint.adapters.sqlite.engine.SqliteChangeLogTrim;
import dev.stillpoint.adapters.sqlite.engine.SqliteSnapshots;
import dev.stillpoint.adapters.sqlite.engine.SqliteBulkLoads;
import dev.stillpoint.adapters.sqlite.engine.SqliteTables;
import dev.stillpoint.adapters.sqlite.schema.Migrations;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.core.StorageFacade;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.out.LockProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * Stillpoint on SQLite, the embedded default: one object that opens (and migrates) the database,
 * runs the control-plane poller, and offers the driving ports; or, opened with {@link #openReadOnly},
 * reads an existing database and changes nothing. Close it to stop the poller and
 * close every connection.
 */
public final class SqliteStorage extends StorageFacade {

    /** What this backend offers, known before anything is opened: SQLite: everything. */
    public static final StorageCapabilities CAPABILITIES = StorageCapabilities.full("SQLite").withChangeLog()
            .withSegments(dev.stillpoint.ports.in.SegmentSharing.ONE_READ);

    static {
        // Before any opening renders SQL: jOOQ's logo and tip stay off unless the embedder set them.
        dev.stillpoint.sqlcatalog.JooqBanner.off();
    }

    private final SqliteCatalog catalog;
    private final ChangeLogReads changeLog;
    private final boolean readOnly;

    private SqliteStorage(SqliteConfig config, boolean readOnly) {
        this(config, readOnly, connect(config, readOnly));
    }

    private SqliteStorage(SqliteConfig config, boolean readOnly, Connections connections) {
        super(CAPABILITIES, new StorageCore(config.coreSettings(), "stillpoint-sqlite-control-plane"),
                connections::close);
        this.readOnly = readOnly;
        catalog = new SqliteCatalog(connections, config.time(), config.controlPlaneDelay());
        SqliteTables storage = new SqliteTables(catalog);
        // Every pass trims the change logs past the retention [I4].
        PassChore trim = core().changeLogTrim(new SqliteChangeLogTrim(connections));
        core().assemble(new ControlPlanePorts(catalog, catalog, catalog::controlPlaneDelay, storage, storage, storage,
                List.of(trim), config.coreSettings().restoreIdleLimit())
                // Restores load in large transactions with plain INSERTs [B1].
                .withBulkLoads(new SqliteBulkLoads(catalog)), new SqliteSnapshots(connections, config.pageBudget()),
                PermitPool.withCapacity(config.snapshotPermits()));
        changeLog = new SqliteChangeLog(connections);
        if (!readOnly) {
            core().start();
        }
    }

    /** The connections of an opening: read-only ones to a checked file, or read-write ones to a migrated database. */
    private static Connections connect(SqliteConfig config, boolean readOnly) {
        if (readOnly) {
            Path file = config.file().orElseThrow(() -> StorageException.validation(
                    "a read-only opening needs a database file; an in-memory database has nothing to read"));
            return new Connections(config, ReadOnlyFile.check(file, Connections.readOnlySettings(config)));
        }
        config.file().ifPresent(file -> requireInitialisable(file, Connections.readOnlySettings(config), false));
        Connections connections = new Connections(config);
        try (Connections.Borrowed w = connections.write()) {
            Migrations.bundled().apply(w.connection());
        } catch (RuntimeException e) {
            connections.close();
            throw e instanceof StorageException s ? s : StorageException.internal(
                    "cannot migrate SQLite database: " + e.getMessage(), e);
        }
        return connections;
    }

    /**
     * Opens the database read-write (creating and migrating it if needed) and starts the control-plane
     * poller. Only a new or empty file is initialised [O4]: an existing file that holds anything but a
     * Stillpoint database is refused before it is opened for writing, and left byte-equal.
     *
     * @throws StorageException VALIDATION naming the file and what it holds when it is a SQLite
     *     database of something else, or not a SQLite database at all
     */
    public static SqliteStorage open(SqliteConfig config) {
        return new SqliteStorage(config, false);
    }

    /**
     * As {@link #open}, but only for a file that already is a Stillpoint database (of any schema version,
     * migrated as {@code open} does): a missing, empty or foreign file is refused and left as it was.
     * For the commands that write but do not create a table [O4].
     *
     * @throws StorageException VALIDATION naming the file when it is not a Stillpoint database
     */
    public static SqliteStorage openExisting(SqliteConfig config) {
        Path file = config.file().orElseThrow(() -> StorageException.validation(
                "opening an existing database needs a database file; an in-memory database is always new"));
        if (!Files.isRegularFile(file)) {
            throw StorageException.validation("database file " + file + " does not exist; only a command that"
                    + " creates a table creates a database");
        }
        requireInitialisable(file, Connections.readOnlySettings(config), true);
        return new SqliteStorage(config, false);
    }

    private static void requireInitialisable(Path file, SQLiteConfig settings, boolean existingOnly) {
        if (!Files.exists(file)) {
            return;
        }
        FileContents contents = ReadOnlyFile.inspect(file, settings);
        if (contents.stillpoint()) {
            return;
        }
        if (!contents.empty()) {
            throw StorageException.validation("file " + file + " is not a Stillpoint database: it holds "
                    + describe(contents.foreignObjects()) + " and no sp_schema_version; Stillpoint initialises only a"
                    + " new or empty file and left this one as it was");
        }
        if (existingOnly) {
            throw StorageException.validation("file " + file + " is an empty database, not a Stillpoint one; only a"
                    + " command that creates a table initialises it");
        }
    }

    private static String describe(List<String> objects) {
        int shown = Math.min(3, objects.size());
        return String.join(", ", objects.subList(0, shown)) + (objects.size() > shown
                ? " and " + (objects.size() - shown) + " more" : "");
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
    @Override
    public boolean readOnly() {
        return readOnly;
    }

    /** A table's changes between two snapshot markers [I2], read in one WAL snapshot as a snapshot is [Q1]. */
    @Override
    public ChangeLogReads changeLog() {
        return changeLog;
    }

    /** Who holds what on a table's relations: always nothing under WAL. */
    public LockProbe locks() {
        return catalog;
    }

    @Override
    protected void writeRestoreRecord(TableDescription table, RestoreSummary summary) {
        catalog.writeRestoreRecord(table.tableId(), summary);
    }
}

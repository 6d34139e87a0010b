package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * The engine's connections. A file database has one writer connection (SQLite admits one writer;
 * its BEGIN is IMMEDIATE so a write never fails upgrading a read lock) and a pool of read
 * connections in WAL mode. An in-memory database has exactly one connection serving both roles.
 */
public final class Connections implements AutoCloseable {

    /** A borrowed connection; closing it gives it back. */
    public interface Borrowed extends AutoCloseable {
        Connection connection();

        @Override
        void close();
    }

    private final boolean inMemory;
    private final boolean readOnly;
    private final String where;
    private final Connection writer;
    private final ReentrantLock writerLock = new ReentrantLock(true);
    private final BlockingQueue<Connection> readers;
    private final List<Connection> all = new ArrayList<>();
    private final long acquireTimeoutMillis;
    /** Set by {@link #close}: every later borrow is refused by name. */
    private volatile boolean closed;

    public Connections(SqliteConfig config) {
        this.inMemory = config.file().isEmpty();
        this.readOnly = false;
        this.where = config.file().map(Path::toString).orElse(":memory:");
        this.acquireTimeoutMillis = Math.max(1000, config.busyTimeout().toMillis() * 6);
        try {
            if (inMemory) {
                writer = open("jdbc:sqlite::memory:", config, SQLiteConfig.TransactionMode.IMMEDIATE);
                readers = new ArrayBlockingQueue<>(1);
            } else {
                String url = "jdbc:sqlite:" + config.file().map(Path::toAbsolutePath).orElseThrow();
                writer = open(url, config, SQLiteConfig.TransactionMode.IMMEDIATE);
                readers = new ArrayBlockingQueue<>(config.readConnections());
                for (int i = 0; i < config.readConnections(); i++) {
                    readers.add(open(url, config, SQLiteConfig.TransactionMode.DEFERRED));
                }
            }
        } catch (SQLException e) {
            closeAll();
            throw new StorageException(ErrorReason.INTERNAL, "cannot open SQLite database "
                    + config.file().map(Path::toString).orElse(":memory:") + ": " + e.getMessage(), e);
        }
    }

    /**
     * Read connections only, each opened read-only as {@code file} says [L4]: no writer connection, no
     * journal-mode or other persistent pragma; {@link #write()} is refused.
     */
    public Connections(SqliteConfig config, ReadOnlyFile file) {
        this.inMemory = false;
        this.readOnly = true;
        this.where = file.file().toString();
        this.acquireTimeoutMillis = Math.max(1000, config.busyTimeout().toMillis() * 6);
        this.writer = null;
        this.readers = new ArrayBlockingQueue<>(config.readConnections());
        try {
            for (int i = 0; i < config.readConnections(); i++) {
                Connection c = file.open(readOnlySettings(config));
                all.add(c);
                readers.add(c);
            }
        } catch (SQLException e) {
            closeAll();
            throw new StorageException(ErrorReason.INTERNAL, "cannot open SQLite database " + where
                    + " read-only: " + e.getMessage(), e);
        }
    }

    /** What a read-only connection sets: only per-connection settings, nothing that persists in the file. */
    public static SQLiteConfig readOnlySettings(SqliteConfig config) {
        SQLiteConfig c = new SQLiteConfig();
        c.setBusyTimeout((int) config.busyTimeout().toMillis());
        c.setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
        return c;
    }

    private Connection open(String url, SqliteConfig config, SQLiteConfig.TransactionMode mode) throws SQLException {
        SQLiteConfig c = new SQLiteConfig();
        c.setBusyTimeout((int) config.busyTimeout().toMillis());
        c.enforceForeignKeys(true);
        c.setTransactionMode(mode);
        if (!inMemory) {
            c.setJournalMode(SQLiteConfig.JournalMode.WAL);
            c.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        }
        Connection connection = c.createConnection(url);
        all.add(connection);
        return connection;
    }

    /** Whether this is an in-memory database (one connection). */
    public boolean inMemory() {
        return inMemory;
    }

    /** Whether the connections were opened read-only ({@link #write()} is then refused). */
    public boolean readOnly() {
        return readOnly;
    }

    /** The writer connection, exclusively, in auto-commit mode; refused (UNSUPPORTED) on a read-only opening. */
    public Borrowed write() {
        requireOpen();
        if (readOnly) {
            throw new StorageException(ErrorReason.UNSUPPORTED, "SQLite database " + where
                    + " was opened read-only (SqliteStorage.openReadOnly): writes need SqliteStorage.open");
        }
        lock(writerLock);
        return new Borrowed() {
            @Override
            public Connection connection() {
                return writer;
            }

            @Override
            public void close() {
                writerLock.unlock();
            }
        };
    }

    /**
     * A read connection in auto-commit mode. On an in-memory database that is the one connection,
     * held exclusively like the writer.
     */
    public Borrowed read() {
        if (inMemory) {
            return write();
        }
        requireOpen();
        Connection c;
        try {
            c = readers.poll(acquireTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException(ErrorReason.TRANSIENT, "interrupted waiting for a SQLite read connection");
        }
        if (c == null) {
            throw new StorageException(ErrorReason.TRANSIENT, "no SQLite read connection free within "
                    + acquireTimeoutMillis + " ms");
        }
        Connection borrowed = c;
        return new Borrowed() {
            @Override
            public Connection connection() {
                return borrowed;
            }

            @Override
            public void close() {
                readers.add(borrowed);
            }
        };
    }

    /**
     * Refuses a borrow once the storage is closed (TRANSIENT, as a server shutting down answers). Found from
     * outside: a call after close said "database connection closed" or "statement is not executing" (INTERNAL).
     */
    private void requireOpen() {
        if (closed) {
            throw closedRefusal();
        }
    }

    /** {@code failure}, or this refusal when the storage was closed meanwhile: a read the close cut off says so. */
    public StorageException closedOr(StorageException failure) {
        return closed ? closedRefusal() : failure;
    }

    private StorageException closedRefusal() {
        return new StorageException(ErrorReason.TRANSIENT, "SQLite database " + where + " is closed (its storage"
                + " was closed): nothing is read or written after SqliteStorage.close");
    }

    private void lock(ReentrantLock lock) {
        try {
            if (!lock.tryLock(acquireTimeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new StorageException(ErrorReason.TRANSIENT, "the SQLite writer was busy for "
                        + acquireTimeoutMillis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException(ErrorReason.TRANSIENT, "interrupted waiting for the SQLite writer");
        }
    }

    @Override
    public void close() {
        closed = true;
        closeAll();
    }

    private void closeAll() {
        for (Connection c : all) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Closing at shutdown: nothing left to protect.
            }
        }
    }
}

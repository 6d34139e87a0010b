package dev.stillpoint.adapters.postgres.engine;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.domain.error.DriverText;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine's HikariCP pools: one for the shared layout; a catalog pool and a data pool for the
 * separate layout. Every unit of work borrows the catalog connection before the data connection, so
 * two pools can never deadlock each other.
 *
 * <p>Fail fast while the database is down [L3]: a borrow waits at most the configured connection
 * timeout (HikariCP's {@code connectionTimeout}), and opening a new connection at most as long
 * (pgjdbc's {@code connectTimeout} and {@code loginTimeout}); a borrow that fails for want of a
 * connection is an {@link Unreachable} (SQLSTATE 08001, so Transient) that names the database by
 * host, port and name only, never by its URL's options or credentials.
 */
public final class Pools implements AutoCloseable {

    private static final Pattern ADDRESS = Pattern.compile("jdbc:postgresql://([^/?]*)(?:/([^?]*))?.*");

    private final HikariDataSource catalog;
    private final HikariDataSource data;
    private final String catalogAddress;
    private final String dataAddress;
    private final long timeoutMillis;
    private final int dataPoolSize;
    private final boolean readOnly;
    private final PostgresConfig.Database catalogDatabase;
    private final PostgresConfig.Database dataDatabase;

    /**
     * A borrow that got no connection within the connection timeout: the database is unreachable
     * (down, refusing, or every connection busy that long). SQLSTATE 08001, so it maps to Transient.
     */
    public static final class Unreachable extends SQLTransientConnectionException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message, Throwable cause) {
            super(message, "08001", cause);
        }
    }

    /**
     * A connection the server refused for a reason no retry mends: a wrong password or user (28P01,
     * 28000), an unknown database (3D000), a missing privilege (42501), or a login the client could not
     * even offer (08004, no password for a server that asks one) [O3]. It keeps the server's SQLSTATE,
     * so it maps to a non-retryable reason, and its message never carries the URL's options.
     */
    public static final class Refused extends SQLNonTransientConnectionException {
        private static final long serialVersionUID = 1L;

        Refused(String message, String sqlState, Throwable cause) {
            super(message, sqlState, cause);
        }
    }

    /**
     * The schema Stillpoint keeps its relations in, as quoted by the server: the schema of {@code marker} where the
     * session's search path finds it (an existing catalog's, or a data database's owner record), else the schema a
     * CREATE would use. Every pooled connection is pinned to it, so relations never land in a schema that appears
     * earlier in the search path later on (found from outside: after {@code CREATE SCHEMA sp} for login {@code sp},
     * whose search path is {@code "$user", public}, a new table's relations went to schema {@code sp} beside a catalog
     * in {@code public}, and a DeleteTable over a URL with {@code currentSchema=public} reported the table deleted
     * and left them there).
     */
    private static final String SCHEMA_OF = "SELECT quote_ident(coalesce((SELECT n.nspname FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)), current_schema()))";

    /** Read-write pools, as every engine but a read-only one has. */
    public Pools(PostgresConfig config) throws SQLException {
        this(config, false);
    }

    /**
     * The pools; with {@code readOnly} every connection is read-only at the server (its session's
     * transactions READ ONLY, so a write fails with 25006) and marked read-only for the driver. One direct
     * connection to each database comes first: a failure no retry mends is reported at once as {@link Refused}
     * instead of after the pool's connection timeout as {@link Unreachable} [O3, L3], and it reads the schema
     * every pooled connection is then pinned to ({@link #SCHEMA_OF}).
     *
     * @throws SQLException {@link Refused} or {@link Unreachable}, naming the database that failed
     */
    public Pools(PostgresConfig config, boolean readOnly) throws SQLException {
        this.readOnly = readOnly;
        this.dataPoolSize = config.poolSize();
        this.catalogDatabase = config.catalog();
        this.dataDatabase = config.data().orElse(config.catalog());
        this.catalogAddress = address(config.catalog().jdbcUrl());
        this.dataAddress = config.data().map(d -> address(d.jdbcUrl())).orElse(catalogAddress);
        this.timeoutMillis = config.connectionTimeout().toMillis();
        String engine = Integer.toHexString(System.identityHashCode(this));
        if (config.sharedLayout()) {
            String schema = probe(catalogDatabase, "database " + catalogAddress, "sp_schema_version");
            catalog = open(config.catalog(), config.poolSize(), config, "stillpoint-pg-" + engine, readOnly, schema);
            data = catalog;
        } else {
            // Which of the two refused: a wrong --data-url must not read as a catalog failure.
            String catalogSchema = probe(catalogDatabase, "catalog database " + catalogAddress, "sp_schema_version");
            String dataSchema = probe(dataDatabase, "data database " + dataAddress, "sp_data_owner");
            catalog = open(config.catalog(), config.catalogPoolSize(), config, "stillpoint-pg-" + engine + "-catalog",
                    readOnly, catalogSchema);
            try {
                data = open(config.data().orElseThrow(), config.poolSize(), config, "stillpoint-pg-" + engine + "-data",
                        readOnly, dataSchema);
            } catch (RuntimeException e) {
                catalog.close();
                throw e;
            }
        }
    }

    /** {@code host:port/database} of a JDBC URL, without its options (which may hold a password). */
    public static String address(String jdbcUrl) {
        Matcher m = ADDRESS.matcher(jdbcUrl);
        if (!m.matches()) {
            return "(an unparsable JDBC URL)";
        }
        // No user before the host: PostgresConfig.Database refuses a URL with one.
        String hosts = m.group(1).isEmpty() ? "localhost:5432" : m.group(1);
        return hosts + "/" + (m.group(2) == null ? "" : m.group(2));
    }

    /** One connection to {@code db} outside the pools, closed again: the schema of {@code marker} ({@link #SCHEMA_OF}). */
    private String probe(PostgresConfig.Database db, String address, String marker) throws SQLException {
        Properties props = new Properties();
        if (db.user() != null) {
            props.setProperty("user", db.user());
        }
        if (db.password() != null) {
            props.setProperty("password", db.password());
        }
        String seconds = Long.toString(Math.max(1, (timeoutMillis + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("loginTimeout", seconds);
        try (Connection c = new org.postgresql.Driver().connect(db.jdbcUrl(), props)) {
            if (c == null) {
                throw new SQLException("not a PostgreSQL JDBC URL: " + address, "08001");
            }
            try (PreparedStatement ps = c.prepareStatement(SCHEMA_OF)) {
                ps.setString(1, marker);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        } catch (SQLException e) {
            throw classify(e, address);
        }
    }

    /** {@link Refused} for a failure no retry mends, else {@link Unreachable}: both name the address only. */
    private SQLException classify(Throwable cause, String address) {
        String state = PgFailures.sqlState(cause);
        if (PgFailures.isPermanentLoginFailure(state)) {
            return new Refused("the PostgreSQL " + address + " refused the connection ("
                    + DriverText.firstLine(cause.getMessage()) + "); a retry will not change that", state, cause);
        }
        return new Unreachable("the PostgreSQL " + address + " is unreachable: no connection within "
                + timeoutMillis + " ms (" + DriverText.firstLine(cause.getMessage()) + ")", cause);
    }

    private static HikariDataSource open(PostgresConfig.Database db, int size, PostgresConfig config, String name,
                                         boolean readOnly, String schema) {
        HikariConfig h = new HikariConfig();
        h.setPoolName(name);
        h.setJdbcUrl(db.jdbcUrl());
        h.setUsername(db.user());
        h.setPassword(db.password());
        h.setMaximumPoolSize(size);
        // Connections are made on demand and kept: an engine that is opened and closed at once
        // (tests, tools) does not fill its pool first.
        h.setMinimumIdle(0);
        long timeout = config.connectionTimeout().toMillis();
        h.setConnectionTimeout(timeout);
        // A liveness check of an idle connection must end inside the borrow's own timeout.
        h.setValidationTimeout(Math.max(250, Math.min(5000, timeout / 2)));
        h.setInitializationFailTimeout(-1);
        // Opening one connection (TCP connect, then login) may not take longer than a borrow may wait [L3].
        int seconds = (int) Math.max(1, (timeout + 999) / 1000);
        h.addDataSourceProperty("connectTimeout", seconds);
        h.addDataSourceProperty("loginTimeout", seconds);
        h.setAutoCommit(true);
        List<String> init = new ArrayList<>();
        if (schema != null) {
            // No schema of the search path exists when it is null: a CREATE then fails naming that, as it would anyway.
            init.add("SET search_path TO " + schema);
        }
        if (readOnly) {
            // The server enforces it for every statement, auto-commit ones too (the driver's flag alone does not).
            h.setReadOnly(true);
            init.add("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
        }
        if (!init.isEmpty()) {
            h.setConnectionInitSql(String.join("; ", init));
        }
        h.addDataSourceProperty("ApplicationName", name);
        return new HikariDataSource(h);
    }

    /** Whether every connection is read-only (a read-only opening). */
    public boolean readOnly() {
        return readOnly;
    }

    /** Whether catalog and data share one database and one pool. */
    public boolean shared() {
        return catalog == data;
    }

    /** Connections of the data pool: snapshots may hold half of them [D7]. */
    public int dataPoolSize() {
        return dataPoolSize;
    }

    /** A catalog connection in auto-commit mode; close it to give it back. {@link Unreachable} after the timeout. */
    public Connection catalog() throws SQLException {
        return borrow(catalog, catalogAddress);
    }

    /** A data connection in auto-commit mode (on the shared layout, from the one pool). {@link Unreachable} after the timeout. */
    public Connection data() throws SQLException {
        return borrow(data, dataAddress);
    }

    /** Connections borrowed from the pools now, by HikariCP's own count (diagnostics and tests). */
    public int borrowed() {
        int n = active(catalog);
        return data == catalog ? n : n + active(data);
    }

    private static int active(HikariDataSource pool) {
        var bean = pool.getHikariPoolMXBean();
        return bean == null ? 0 : bean.getActiveConnections();
    }

    private Connection borrow(HikariDataSource pool, String address) throws SQLException {
        if (pool.isClosed()) {
            // Found from outside: HikariCP's "has been closed" came back as INTERNAL, and a stream's next page
            // as "the database may be unreachable or restarting" while the database was fine.
            throw closedRefusal(address);
        }
        try {
            return pool.getConnection();
        } catch (SQLTransientConnectionException e) {
            // HikariCP's own timeout: its message names the pool; the cause is the last connect failure,
            // which may be one no retry mends (the password changed while the engine ran) [O3].
            throw classify(e.getCause() == null ? e : e.getCause(), address);
        }
    }

    /** {@code failure}, or the closed storage's refusal when the pools were closed meanwhile (a read cut off by it). */
    public StorageException closedOr(StorageException failure) {
        return data.isClosed() ? closedRefusal(dataAddress) : failure;
    }

    private static StorageException closedRefusal(String address) {
        return new StorageException(ErrorReason.TRANSIENT, "the PostgreSQL storage of " + address + " is closed"
                + " (PostgresStorage.close): nothing is read or written after it");
    }

    @Override
    public void close() {
        catalog.close();
        if (data != catalog) {
            data.close();
        }
    }
}

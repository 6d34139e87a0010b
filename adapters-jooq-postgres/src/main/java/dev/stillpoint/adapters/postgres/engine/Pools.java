package dev.stillpoint.adapters.postgres.engine;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.stillpoint.adapters.postgres.PostgresConfig;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The engine's HikariCP pools: one for the shared layout; a catalog pool and a data pool for the
 * separate layout. Every unit of work borrows the catalog connection before the data connection, so
 * two pools can never deadlock each other.
 */
public final class Pools implements AutoCloseable {

    private final HikariDataSource catalog;
    private final HikariDataSource data;
    private final int dataPoolSize;

    public Pools(PostgresConfig config) {
        String engine = Integer.toHexString(System.identityHashCode(this));
        if (config.sharedLayout()) {
            catalog = open(config.catalog(), config.poolSize(), config, "stillpoint-pg-" + engine);
            data = catalog;
        } else {
            catalog = open(config.catalog(), config.catalogPoolSize(), config, "stillpoint-pg-" + engine + "-catalog");
            try {
                data = open(config.data().orElseThrow(), config.poolSize(), config, "stillpoint-pg-" + engine + "-data");
            } catch (RuntimeException e) {
                catalog.close();
                throw e;
            }
        }
        this.dataPoolSize = config.poolSize();
    }

    private static HikariDataSource open(PostgresConfig.Database db, int size, PostgresConfig config, String name) {
        HikariConfig h = new HikariConfig();
        h.setPoolName(name);
        h.setJdbcUrl(db.jdbcUrl());
        h.setUsername(db.user());
        h.setPassword(db.password());
        h.setMaximumPoolSize(size);
        // Connections are made on demand and kept: an engine that is opened and closed at once
        // (tests, tools) does not fill its pool first.
        h.setMinimumIdle(0);
        h.setConnectionTimeout(config.connectionTimeout().toMillis());
        h.setInitializationFailTimeout(-1);
        h.setAutoCommit(true);
        h.addDataSourceProperty("ApplicationName", name);
        return new HikariDataSource(h);
    }

    /** Whether catalog and data share one database and one pool. */
    public boolean shared() {
        return catalog == data;
    }

    /** Connections of the data pool: snapshots may hold half of them [D7]. */
    public int dataPoolSize() {
        return dataPoolSize;
    }

    /** A catalog connection in auto-commit mode; close it to give it back. */
    public Connection catalog() throws SQLException {
        return catalog.getConnection();
    }

    /** A data connection in auto-commit mode (on the shared layout, from the one pool). */
    public Connection data() throws SQLException {
        return data.getConnection();
    }

    @Override
    public void close() {
        catalog.close();
        if (data != catalog) {
            data.close();
        }
    }
}

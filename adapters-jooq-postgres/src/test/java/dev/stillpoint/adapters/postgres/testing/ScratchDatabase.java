package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import java.sql.Connection;
import java.sql.SQLException;

/** A database made for one test class; closing it drops it (WITH (FORCE): open sessions are ended). */
public final class ScratchDatabase implements AutoCloseable {

    private final PgServer server;
    private final String name;

    ScratchDatabase(PgServer server, String name) {
        this.server = server;
        this.name = name;
    }

    public String name() {
        return name;
    }

    public PostgresConfig.Database database() {
        return new PostgresConfig.Database(server.url(name), server.user(), server.password());
    }

    /** A connection outside any pool, e.g. a plain reader or an operator's session. */
    public Connection connect() throws SQLException {
        return server.connect(name);
    }

    @Override
    public void close() {
        server.drop(name);
    }
}

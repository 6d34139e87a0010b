package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The scratch databases of one test class: one for the shared layout, a catalog and a data database
 * for the separate layout. Close drops all three, also after a failure.
 */
public final class PgDatabases implements AutoCloseable {

    private final ScratchDatabase shared;
    private final ScratchDatabase catalog;
    private final ScratchDatabase data;

    private PgDatabases(ScratchDatabase shared, ScratchDatabase catalog, ScratchDatabase data) {
        this.shared = shared;
        this.catalog = catalog;
        this.data = data;
    }

    /** Creates the three databases; {@code label} names the test class. */
    public static PgDatabases create(String label) {
        PgServer server = PgServer.get();
        ScratchDatabase shared = server.create(label + "_s");
        ScratchDatabase catalog = null;
        try {
            catalog = server.create(label + "_c");
            ScratchDatabase data = server.create(label + "_d");
            return new PgDatabases(shared, catalog, data);
        } catch (RuntimeException e) {
            shared.close();
            if (catalog != null) {
                catalog.close();
            }
            throw e;
        }
    }

    /** A production-default config of {@code layout}, with a 10 s pool timeout so a hang fails fast. */
    public PostgresConfig config(Layout layout) {
        PostgresConfig config = layout == Layout.SHARED
                ? PostgresConfig.shared(shared.database())
                : PostgresConfig.separate(catalog.database(), data.database());
        return config.withConnectionTimeout(Duration.ofSeconds(10));
    }

    /** The database the data relations of {@code layout} live in. */
    public ScratchDatabase dataDatabase(Layout layout) {
        return layout == Layout.SHARED ? shared : data;
    }

    /** The database the catalog of {@code layout} lives in. */
    public ScratchDatabase catalogDatabase(Layout layout) {
        return layout == Layout.SHARED ? shared : catalog;
    }

    /** A plain session on the data database of {@code layout}, outside every pool. */
    public Connection dataSession(Layout layout) throws SQLException {
        return dataDatabase(layout).connect();
    }

    @Override
    public void close() {
        shared.close();
        catalog.close();
        data.close();
    }
}

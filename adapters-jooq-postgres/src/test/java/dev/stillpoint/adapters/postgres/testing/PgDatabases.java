package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The scratch databases of one test class: one for the shared layout, a catalog and a data database
 * for the separate layout. Close drops all three, also after a failure. A test class registers one
 * ({@code @RegisterExtension static final PgDatabases databases = PgDatabases.perClass("label")}):
 * they are created before its first test and dropped after its last.
 */
public final class PgDatabases implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    private final String label;
    private ScratchDatabase shared;
    private ScratchDatabase catalog;
    private ScratchDatabase data;

    private PgDatabases(String label) {
        this.label = label;
    }

    /** Creates the three databases now; {@code label} names the user. */
    public static PgDatabases create(String label) {
        PgDatabases databases = new PgDatabases(label);
        databases.createAll();
        return databases;
    }

    /** The databases of a test class, created before its first test and dropped after its last. */
    public static PgDatabases perClass(String label) {
        return new PgDatabases(label);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        createAll();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        dropIfCreated();
    }

    private void createAll() {
        PgServer server = PgServer.get();
        ScratchDatabase s = server.create(label + "_s");
        ScratchDatabase c = null;
        try {
            c = server.create(label + "_c");
            data = server.create(label + "_d");
            shared = s;
            catalog = c;
        } catch (RuntimeException e) {
            s.close();
            if (c != null) {
                c.close();
            }
            throw e;
        }
    }

    /** For a jqwik container, which runs no JUnit extension: the databases, created on first use. */
    public synchronized PgDatabases created() {
        if (shared == null) {
            createAll();
        }
        return this;
    }

    /** Drops the databases if they were created; for a jqwik container's {@code @AfterContainer}. */
    public synchronized void dropIfCreated() {
        if (shared != null) {
            close();
        }
    }

    /** {@link #config} with a zero control-plane delay: what most tests open. */
    public PostgresConfig undelayed(Layout layout) {
        return config(layout).withControlPlaneDelay(Duration.ZERO);
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
        shared = null;
    }
}

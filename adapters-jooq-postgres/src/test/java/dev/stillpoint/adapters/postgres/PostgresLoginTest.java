package dev.stillpoint.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failure no retry mends is not Transient [O3], on a PostgreSQL server of the test's own whose
 * pg_hba.conf asks role {@code app} for its password (the suite's shared server trusts everyone):
 * a wrong password, an unknown database and a role without the privilege an opening needs each fail
 * at once, with a non-retryable reason naming the server's condition and never the password, while
 * the default connection timeout is 5 s. Before issue 25 each waited the whole timeout and failed
 * TRANSIENT saying "unreachable" (08001): every assertion on the reason and the time failed.
 */
class PostgresLoginTest {

    private static final String PASSWORD = "right-horse-battery-31";
    private static final String WRONG = "Wrong-password-never-printed-77";
    /** Under the default connection timeout of 5 s: a refusal that waited for it would take 5 s or more. */
    /**
     * The openings below wait up to TIMEOUT for a connection; a refusal "at once" comes well inside it.
     * A scram login costs CPU, so on a loaded 2-core machine a refusal took 1.7 s (CI, load 20): the
     * bound is generous, and the timeout long enough that only a wait for it would cross the bound.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration AT_ONCE = Duration.ofSeconds(10);

    private static Path dataDir;
    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("stillpoint-pg-login");
        server = EmbeddedPostgres.builder()
                // The default 10 s start wait failed CI on a loaded 2-core machine; a start is not what these tests time.
                .setPGStartupWait(java.time.Duration.ofSeconds(90)).setDataDirectory(dataDir).setCleanDataDirectory(true)
                .setServerConfig("fsync", "off").start();
        try (Connection c = superuser("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE app LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("CREATE ROLE reader LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("CREATE DATABASE appdb OWNER app");
            s.execute("CREATE DATABASE readerdb");
            s.execute("CREATE DATABASE appdata OWNER app");
            s.execute("CREATE DATABASE readerdata");
            // Rules are read top down: these come before the embedded server's trust-everyone lines.
            Path hba = dataDir.resolve("pg_hba.conf");
            String rules = "host all app,reader 127.0.0.1/32 scram-sha-256\nhost all app,reader ::1/128 scram-sha-256\n";
            Files.writeString(hba, rules + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            s.execute("SELECT pg_reload_conf()");
        }
        for (String db : new String[] {"readerdb", "readerdata"}) {
            try (Connection c = superuser(db); Statement s = c.createStatement()) {
                // PostgreSQL 15+: public is not writable by other roles; say so anyway, whatever the version.
                s.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
            }
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static Connection superuser(String db) throws Exception {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + server.getPort() + "/" + db, "postgres", null);
    }

    private static PostgresConfig config(String db, String user, String password) {
        return PostgresConfig.shared(new PostgresConfig.Database("jdbc:postgresql://127.0.0.1:" + server.getPort() + "/"
                + db + "?password=" + password, user, password));
    }

    private static PostgresConfig.Database database(String db, String user, String password) {
        return new PostgresConfig.Database("jdbc:postgresql://127.0.0.1:" + server.getPort() + "/" + db, user, password);
    }

    private static StorageException refusedAtOnce(PostgresConfig config, String what) {
        PostgresConfig waiting = config.withConnectionTimeout(TIMEOUT);
        long t0 = System.nanoTime();
        Throwable t = catchThrowable(() -> PostgresStorage.open(waiting).close());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("O3 %s: refused in %d ms: %s%n", what, took.toMillis(), t);
        assertThat(t).as(what).isInstanceOf(StorageException.class);
        StorageException e = (StorageException) t;
        assertThat(e.reason().retryable()).as(what + " is not retryable: " + e.getMessage()).isFalse();
        assertThat(e.reason()).as(what).isNotEqualTo(ErrorReason.TRANSIENT);
        assertThat(e.getMessage()).as(what).doesNotContain(WRONG).doesNotContain(PASSWORD).doesNotContain("unreachable");
        assertThat(took).as(what + " fails at once, not after the connection timeout").isLessThan(AT_ONCE);
        return e;
    }

    @Test
    void o3_theRightPasswordOpens() {
        // The control: the server does ask app for a password, and takes the right one.
        try (PostgresStorage storage = PostgresStorage.open(config("appdb", "app", PASSWORD))) {
            assertThat(storage.tables().listTables("acct")).isEmpty();
        }
    }

    @Test
    void o3_aWrongPasswordFailsAtOnceAndIsNotRetryable() {
        StorageException e = refusedAtOnce(config("appdb", "app", WRONG), "a wrong password");
        assertThat(e.getMessage()).contains("28P01").contains("127.0.0.1:" + server.getPort() + "/appdb");
    }

    @Test
    void o3_anUnknownDatabaseFailsAtOnceAndIsNotRetryable() {
        StorageException e = refusedAtOnce(config("no_such_db", "app", PASSWORD), "an unknown database");
        assertThat(e.getMessage()).contains("3D000").contains("no_such_db");
    }

    @Test
    void o3_aRoleThatMayNotCreateTheCatalogFailsAtOnceAndIsNotRetryable() {
        StorageException e = refusedAtOnce(config("readerdb", "reader", PASSWORD), "a role without CREATE");
        assertThat(e.getMessage()).contains("42501");
    }

    @Test
    void o3_aWrongDataPasswordOnTheSeparateLayoutNamesTheDataDatabaseNotTheCatalog() {
        // Found from outside: the CLI with a good --postgres and a --data-url with a wrong password said
        // "connecting to the PostgreSQL catalog at <catalog>: ... refused", blaming the database that was fine.
        PostgresConfig config = PostgresConfig.separate(database("appdb", "app", PASSWORD),
                database("appdata", "app", WRONG));
        StorageException e = refusedAtOnce(config, "a wrong data-database password");
        String data = "data database 127.0.0.1:" + server.getPort() + "/appdata";
        assertThat(e.getMessage()).contains("28P01").contains(data + " refused")
                .doesNotContain("catalog database 127.0.0.1:" + server.getPort() + "/appdb refused")
                .doesNotContain("PostgreSQL catalog at");
    }

    @Test
    void o3_aDataDatabaseTheRoleMayNotWriteIsNamedBesideTheCatalog() {
        // Found from outside: a catalog the role owns and a data database it may not CREATE in failed
        // "checking the deployment of the PostgreSQL catalog at <catalog>: permission denied for schema public",
        // naming only the database that was fine.
        try (Connection c = superuser("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE readercat OWNER reader");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        PostgresConfig config = PostgresConfig.separate(database("readercat", "reader", PASSWORD),
                database("readerdata", "reader", PASSWORD));
        StorageException e = refusedAtOnce(config, "a data database without CREATE");
        assertThat(e.getMessage()).contains("42501").contains("data database at 127.0.0.1:" + server.getPort()
                + "/readerdata");
    }
}

package dev.stillpoint.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.opentest4j.TestAbortedException;

/**
 * The real PostgreSQL the command-line tests export from and restore into: an embedded server
 * (io.zonky.test, as adapters-jooq-postgres's tests start it), once per test JVM, stopped at exit. A
 * server that cannot start fails the caller when {@code STILLPOINT_TEST_PG_REQUIRED} is set and skips it
 * otherwise. Databases have random names.
 */
final class CliPg {
    private static EmbeddedPostgres server;
    private static Throwable failure;

    private CliPg() {
    }

    private static synchronized EmbeddedPostgres server() {
        if (server == null && failure == null) {
            try {
                server = EmbeddedPostgres.builder()
                // The default 10 s start wait failed CI on a loaded 2-core machine; a start is not what these tests time.
                .setPGStartupWait(java.time.Duration.ofSeconds(90))
                        .setDataDirectory(Files.createTempDirectory("stillpoint-cli-pg"))
                        .setCleanDataDirectory(true)
                        .setServerConfig("max_connections", "200")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .start();
                EmbeddedPostgres started = server;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        started.close();
                    } catch (IOException ignored) {
                        // The JVM is exiting.
                    }
                }, "cli-pg-stop"));
            } catch (Throwable t) {
                failure = t;
            }
        }
        if (failure != null) {
            if (System.getenv("STILLPOINT_TEST_PG_REQUIRED") != null) {
                throw new AssertionError("PostgreSQL is required (STILLPOINT_TEST_PG_REQUIRED) but did not start: " + failure,
                        failure);
            }
            throw new TestAbortedException("no PostgreSQL for the tests: " + failure);
        }
        return server;
    }

    /**
     * A new database's JDBC URL, with user and password as URL parameters (the server trusts local
     * connections, so any password passes: the tests check that it is never printed).
     */
    static String newDatabase(String label, String password) {
        EmbeddedPostgres pg = server();
        String name = ("sp_cli_" + label + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8))
                .toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                "postgres", null); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return "jdbc:postgresql://localhost:" + pg.getPort() + "/" + name + "?user=postgres&password=" + password;
    }
}

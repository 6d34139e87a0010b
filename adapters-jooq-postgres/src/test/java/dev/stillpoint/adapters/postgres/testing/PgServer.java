package dev.stillpoint.adapters.postgres.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.TestAbortedException;

/**
 * The real PostgreSQL every test of this module runs against, started once per test JVM:
 * an embedded PostgreSQL 16 (io.zonky.test), or the server {@code STILLPOINT_TEST_PG_URL} names
 * (a JDBC URL of a database the user may CREATE DATABASE from; user and password from
 * {@code STILLPOINT_TEST_PG_USER} / {@code STILLPOINT_TEST_PG_PASSWORD}, default postgres / none).
 * A server that cannot start fails every test when {@code STILLPOINT_TEST_PG_REQUIRED} is set
 * (as CI sets it), and skips them otherwise. Scratch databases have random names and are dropped
 * by their owner's close, and at JVM exit whatever is left.
 */
public final class PgServer {
    /** {@code -Dstillpoint.test.pg.durable=true}: the embedded server with fsync, synchronous_commit, full_page_writes on. */
    private static final boolean DURABLE = Boolean.getBoolean("stillpoint.test.pg.durable");

    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/]+)/([^?]*)(\\?.*)?");

    private static PgServer instance;
    private static Throwable failure;

    private final String hostPort;
    private final String maintenanceDb;
    private final String query;
    private final String user;
    private final String password;
    private final String description;
    private final Set<String> scratch = ConcurrentHashMap.newKeySet();

    private PgServer(String hostPort, String maintenanceDb, String query, String user, String password, String description) {
        this.hostPort = hostPort;
        this.maintenanceDb = maintenanceDb;
        this.query = query == null ? "" : query;
        this.user = user;
        this.password = password;
        this.description = description;
    }

    /** The server, started on first use; a failure to start fails or skips the caller (see the class comment). */
    public static synchronized PgServer get() {
        if (instance == null && failure == null) {
            try {
                instance = start();
                Runtime.getRuntime().addShutdownHook(new Thread(instance::dropLeftovers, "pg-test-scratch-cleanup"));
            } catch (Throwable t) {
                failure = t;
            }
        }
        if (failure != null) {
            if (System.getenv("STILLPOINT_TEST_PG_REQUIRED") != null) {
                throw new AssertionError("PostgreSQL is required (STILLPOINT_TEST_PG_REQUIRED) but could not be started"
                        + " or reached: " + failure, failure);
            }
            throw new TestAbortedException("no PostgreSQL for the tests (set STILLPOINT_TEST_PG_URL, or fix the embedded"
                    + " server): " + failure);
        }
        return instance;
    }

    private static PgServer start() throws IOException {
        String outside = System.getenv("STILLPOINT_TEST_PG_URL");
        if (outside != null && !outside.isBlank()) {
            Matcher m = URL.matcher(outside.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("STILLPOINT_TEST_PG_URL is not jdbc:postgresql://host:port/db: " + outside);
            }
            String user = System.getenv().getOrDefault("STILLPOINT_TEST_PG_USER", "postgres");
            String password = System.getenv().getOrDefault("STILLPOINT_TEST_PG_PASSWORD", "");
            PgServer server = new PgServer(m.group(1), m.group(2), m.group(3), user, password, "outside server " + m.group(1));
            server.check();
            return server;
        }
        Path dataDir = Files.createTempDirectory("stillpoint-pg-data");
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                // The default 10 s start wait failed CI on a loaded 2-core machine; a start is not what these tests time.
                .setPGStartupWait(java.time.Duration.ofSeconds(90))
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(true)
                // Enough connections for every pool the tests hold at once.
                .setServerConfig("max_connections", "300")
                // Durability off for the tests' speed; a bench asks for a durable server with this property.
                .setServerConfig("fsync", DURABLE ? "on" : "off")
                .setServerConfig("synchronous_commit", DURABLE ? "on" : "off")
                .setServerConfig("full_page_writes", DURABLE ? "on" : "off")
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                pg.close();
            } catch (IOException ignored) {
                // The JVM is exiting.
            }
        }, "pg-test-server-stop"));
        PgServer server = new PgServer("localhost:" + pg.getPort(), "postgres", "", "postgres", "",
                "embedded PostgreSQL on port " + pg.getPort());
        server.check();
        return server;
    }

    private void check() {
        try (Connection c = connect(maintenanceDb)) {
            c.createStatement().execute("SELECT 1");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + description + ": " + e.getMessage(), e);
        }
    }

    /** The JDBC URL of {@code database} on this server. */
    public String url(String database) {
        return "jdbc:postgresql://" + hostPort + "/" + database + query;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** A new connection to {@code database}, outside any pool. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), user, password.isEmpty() ? null : password);
    }

    /** Creates a database of a random name starting with {@code label}; close it to drop it. */
    public ScratchDatabase create(String label) {
        return create(label, "");
    }

    /**
     * A copy of {@code source} (CREATE DATABASE ... TEMPLATE, as a staging database is made from production's),
     * of a random name starting with {@code label}; nothing may be connected to {@code source}. Close it to drop it.
     */
    public ScratchDatabase copy(ScratchDatabase source, String label) {
        return create(label, " TEMPLATE " + source.name());
    }

    private ScratchDatabase create(String label, String template) {
        String name = ("sp_" + label + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10))
                .toLowerCase(Locale.ROOT);
        try (Connection c = connect(maintenanceDb); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name + template);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create scratch database " + name + ": " + e.getMessage(), e);
        }
        scratch.add(name);
        return new ScratchDatabase(this, name);
    }

    void drop(String name) {
        try (Connection c = connect(maintenanceDb); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            scratch.remove(name);
        } catch (SQLException e) {
            System.err.println("could not drop scratch database " + name + ": " + e.getMessage());
        }
    }

    private void dropLeftovers() {
        for (String name : Set.copyOf(scratch)) {
            drop(name);
        }
    }

    @Override
    public String toString() {
        return description;
    }
}

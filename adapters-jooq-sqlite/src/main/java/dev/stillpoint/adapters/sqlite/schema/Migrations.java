package dev.stillpoint.adapters.sqlite.schema;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_SCHEMA_VERSION;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * Brings a SQLite database's catalog schema up to date with the versioned scripts bundled in this
 * module ({@code dev/stillpoint/adapters/sqlite/migrations/V<n>__<description>.sql}).
 *
 * <p>Each pending version runs in its own {@code BEGIN IMMEDIATE} transaction: the write lock is taken
 * before the current version is read, so two processes migrating the same file apply each version
 * once, and a failing script leaves nothing behind (SQLite's DDL is transactional). The applied
 * versions are recorded in {@code sp_schema_version}, which version 1 creates; re-running applies
 * nothing. A database whose version is newer than the newest bundled script is refused.
 */
public final class Migrations {

    /** One versioned script. */
    public record Script(int version, String resource) {
        private static final Pattern FILE = Pattern.compile("(?:.*/)?V([1-9][0-9]{0,8})__[A-Za-z0-9_]+\\.sql");

        public Script {
            Objects.requireNonNull(resource, "resource");
            if (version < 1) {
                throw new IllegalArgumentException("migration versions start at 1: " + version);
            }
        }

        /** A script whose version is read from its file name, {@code V<n>__<description>.sql}. */
        public static Script of(String resource) {
            Matcher m = FILE.matcher(resource);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a migration file name V<n>__<description>.sql: " + resource);
            }
            return new Script(Integer.parseInt(m.group(1)), resource);
        }
    }

    static final String LOCATION = "/dev/stillpoint/adapters/sqlite/migrations/";

    /** The bundled scripts, in order. A test checks this list against the migrations folder. */
    static final List<String> BUNDLED = List.of("V1__catalog.sql", "V2__drop_retry.sql", "V3__commit_sequence.sql",
            "V4__catalog_version.sql");

    private final List<Script> scripts;
    private final Clock clock;

    Migrations(List<Script> scripts, Clock clock) {
        List<Script> sorted = new ArrayList<>(scripts);
        sorted.sort(Comparator.comparingInt(Script::version));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).version() == sorted.get(i - 1).version()) {
                throw new IllegalArgumentException("two migration scripts for version " + sorted.get(i).version());
            }
        }
        if (sorted.isEmpty() || sorted.get(0).version() != 1) {
            throw new IllegalArgumentException("migrations must start with version 1 (it creates sp_schema_version)");
        }
        this.scripts = List.copyOf(sorted);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The scripts bundled with this module. */
    public static Migrations bundled() {
        return bundled(Clock.systemUTC());
    }

    public static Migrations bundled(Clock clock) {
        return new Migrations(BUNDLED.stream().map(name -> Script.of(LOCATION + name)).toList(), clock);
    }

    /** The newest version these scripts lead to. */
    public int latestVersion() {
        return scripts.get(scripts.size() - 1).version();
    }

    /**
     * Applies every script newer than the database's version, each in its own transaction.
     *
     * @param connection a connection in auto-commit mode (it is left so)
     * @return the versions applied by this call, in order; empty when the schema was up to date
     * @throws MigrationException if a script fails (that version is rolled back, earlier ones stay)
     *     or the database is newer than this build
     */
    public List<Integer> apply(Connection connection) {
        requireAutoCommit(connection);
        int found = currentVersion(connection);
        if (found > latestVersion()) {
            throw new MigrationException(found, "database schema version " + found
                    + " is newer than this build's " + latestVersion(), null);
        }
        List<Integer> applied = new ArrayList<>();
        for (Script script : scripts) {
            if (script.version() > found && applyOne(connection, script)) {
                applied.add(script.version());
            }
        }
        return List.copyOf(applied);
    }

    /** The newest version recorded in {@code sp_schema_version}; 0 for a database without it. */
    public static int currentVersion(Connection connection) {
        try {
            DSLContext ctx = DSL.using(connection, SQLDialect.SQLITE);
            boolean exists = ctx.fetchExists(DSL.selectOne()
                    .from(DSL.table(DSL.name("sqlite_master")))
                    .where(DSL.field(DSL.name("type"), String.class).eq("table"))
                    .and(DSL.field(DSL.name("name"), String.class).eq(SP_SCHEMA_VERSION.getName())));
            if (!exists) {
                return 0;
            }
            Integer version = ctx.select(DSL.max(SP_SCHEMA_VERSION.VERSION)).from(SP_SCHEMA_VERSION).fetchOne(0, Integer.class);
            return version == null ? 0 : version;
        } catch (org.jooq.exception.DataAccessException e) {
            throw new MigrationException(0, "cannot read the schema version", e);
        }
    }

    /** Runs one script unless another process applied it meanwhile; true if this call applied it. */
    private boolean applyOne(Connection connection, Script script) {
        List<String> statements = SqlScript.statements(load(script));
        try (Statement st = connection.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            try {
                if (currentVersion(connection) >= script.version()) {
                    st.execute("COMMIT");
                    return false;
                }
                for (int i = 0; i < statements.size(); i++) {
                    try {
                        st.execute(statements.get(i));
                    } catch (SQLException e) {
                        throw new MigrationException(script.version(), "migration " + script.resource()
                                + " failed at statement " + (i + 1) + " of " + statements.size() + ": "
                                + e.getMessage(), e);
                    }
                }
                DSL.using(connection, SQLDialect.SQLITE)
                        .insertInto(SP_SCHEMA_VERSION)
                        .set(SP_SCHEMA_VERSION.VERSION, script.version())
                        .set(SP_SCHEMA_VERSION.APPLIED_AT, clock.instant().toString())
                        .execute();
                st.execute("COMMIT");
                return true;
            } catch (RuntimeException | SQLException e) {
                rollback(st, e);
                throw e instanceof MigrationException me ? me
                        : new MigrationException(script.version(), "migration " + script.resource()
                                + " failed: " + e.getMessage(), e);
            }
        } catch (SQLException e) {
            throw new MigrationException(script.version(), "migration " + script.resource()
                    + " could not start or commit its transaction: " + e.getMessage(), e);
        }
    }

    private static void rollback(Statement st, Exception failure) {
        try {
            st.execute("ROLLBACK");
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    private static void requireAutoCommit(Connection connection) {
        try {
            if (!connection.getAutoCommit()) {
                throw new IllegalStateException("migrations need a connection in auto-commit mode;"
                        + " they run each version in a transaction of their own");
            }
        } catch (SQLException e) {
            throw new MigrationException(0, "cannot inspect the connection", e);
        }
    }

    private static String load(Script script) {
        try (InputStream in = Migrations.class.getResourceAsStream(script.resource())) {
            if (in == null) {
                throw new MigrationException(script.version(), "migration script not found: " + script.resource(), null);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MigrationException(script.version(), "cannot read " + script.resource(), e);
        }
    }
}

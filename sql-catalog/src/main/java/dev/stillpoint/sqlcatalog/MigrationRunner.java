package dev.stillpoint.sqlcatalog;

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
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Brings a catalog schema up to date with versioned scripts. Each pending version runs in its own
 * transaction under the dialect's migration lock, so engines starting together apply each version
 * once; the catalog's DDL is transactional on both databases, so a failing script leaves nothing
 * behind. Applied versions are recorded in {@code sp_schema_version}; re-running applies nothing. A
 * database newer than this build is refused.
 */
public final class MigrationRunner {

    private static final Table<?> VERSIONS = DSL.table(DSL.name("sp_schema_version"));
    private static final Field<Integer> VERSION = DSL.field(DSL.name("version"), Integer.class);
    private static final Field<Object> APPLIED_AT = DSL.field(DSL.name("applied_at"));

    private final List<MigrationScript> scripts;
    private final Clock clock;
    private final MigrationDialect dialect;

    /** Runs {@code scripts} (version 1 first, no version twice) with {@code dialect}. */
    public MigrationRunner(List<MigrationScript> scripts, Clock clock, MigrationDialect dialect) {
        List<MigrationScript> sorted = new ArrayList<>(scripts);
        sorted.sort(Comparator.comparingInt(MigrationScript::version));
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
        this.dialect = Objects.requireNonNull(dialect, "dialect");
    }

    /** The newest version these scripts lead to. */
    public int latestVersion() {
        return scripts.get(scripts.size() - 1).version();
    }

    /**
     * Applies every script newer than the database's version, each in its own transaction.
     *
     * @param connection a connection in auto-commit mode (it is left so)
     * @return the versions this call applied, in order; empty when the schema was up to date
     * @throws MigrationException if a script fails (that version is rolled back, earlier ones stay)
     *     or the database is newer than this build
     */
    public List<Integer> apply(Connection connection) {
        requireAutoCommit(connection);
        int found = currentVersion(connection, dialect);
        if (found > latestVersion()) {
            throw new MigrationException(found, "database schema version " + found
                    + " is newer than this build's " + latestVersion(), null);
        }
        List<Integer> applied = new ArrayList<>();
        for (MigrationScript script : scripts) {
            if (script.version() > found && applyOne(connection, script)) {
                applied.add(script.version());
            }
        }
        return List.copyOf(applied);
    }

    /** The newest version recorded in {@code sp_schema_version}; 0 for a database without it. */
    public static int currentVersion(Connection connection, MigrationDialect dialect) {
        try {
            DSLContext ctx = DSL.using(connection, dialect.sql());
            if (!dialect.versionTableExists(ctx)) {
                return 0;
            }
            Integer version = ctx.select(DSL.max(VERSION)).from(VERSIONS).fetchOne(0, Integer.class);
            return version == null ? 0 : version;
        } catch (org.jooq.exception.DataAccessException e) {
            throw new MigrationException(0, "cannot read the schema version: " + e.getMessage(), e);
        }
    }

    /** Runs one script unless another engine applied it meanwhile; true if this call applied it. */
    private boolean applyOne(Connection connection, MigrationScript script) {
        List<String> statements = dialect.statements(load(script));
        try (Statement st = connection.createStatement()) {
            dialect.begin(st);
            try {
                if (currentVersion(connection, dialect) >= script.version()) {
                    dialect.commit(st);
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
                DSL.using(connection, dialect.sql()).insertInto(VERSIONS)
                        .set(VERSION, script.version())
                        .set(APPLIED_AT, dialect.appliedAt(clock))
                        .execute();
                dialect.commit(st);
                return true;
            } catch (RuntimeException | SQLException e) {
                try {
                    dialect.rollback(st);
                } catch (SQLException r) {
                    e.addSuppressed(r);
                }
                throw e instanceof MigrationException me ? me
                        : new MigrationException(script.version(), "migration " + script.resource()
                                + " failed: " + e.getMessage(), e);
            } finally {
                dialect.end(st);
            }
        } catch (SQLException e) {
            throw new MigrationException(script.version(), "migration " + script.resource()
                    + " could not start or end its transaction: " + e.getMessage(), e);
        }
    }

    private static void requireAutoCommit(Connection connection) {
        try {
            if (!connection.getAutoCommit()) {
                throw new IllegalStateException("migrations need a connection in auto-commit mode;"
                        + " they run each version in a transaction of their own");
            }
        } catch (SQLException e) {
            throw new MigrationException(0, "cannot inspect the connection: " + e.getMessage(), e);
        }
    }

    private String load(MigrationScript script) {
        try (InputStream in = dialect.getClass().getResourceAsStream(script.resource())) {
            if (in == null) {
                throw new MigrationException(script.version(), "migration script not found: " + script.resource(), null);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MigrationException(script.version(), "cannot read " + script.resource(), e);
        }
    }
}

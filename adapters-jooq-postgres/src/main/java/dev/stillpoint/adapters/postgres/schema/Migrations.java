package dev.stillpoint.adapters.postgres.schema;

import dev.stillpoint.sqlcatalog.SqlScript;
import dev.stillpoint.sqlcatalog.MigrationDialect;
import dev.stillpoint.sqlcatalog.MigrationRunner;
import dev.stillpoint.sqlcatalog.MigrationScript;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The PostgreSQL catalog's versioned scripts bundled in this module
 * ({@code dev/stillpoint/adapters/postgres/migrations/V<n>__<description>.sql}), applied by the shared
 * {@link MigrationRunner}. Each version's transaction first takes a transaction-scoped advisory lock,
 * so engines starting together on one database apply each version once.
 */
public final class Migrations {

    /** The advisory lock key every Stillpoint migration takes ("stillpnt" as 8 ASCII bytes). */
    static final long LOCK_KEY = 0x7374696c6c706e74L;

    static final String LOCATION = "/dev/stillpoint/adapters/postgres/migrations/";

    /** The bundled scripts, in order. A test checks this list against the migrations folder. */
    static final List<String> BUNDLED = List.of("V1__catalog.sql", "V2__catalog_version.sql", "V3__deployment.sql",
            "V4__index_counts.sql", "V5__pending_creations.sql");

    private static final MigrationDialect DIALECT = new PostgresMigrationDialect();

    private Migrations() {
    }

    /** The scripts bundled with this module. */
    public static MigrationRunner bundled() {
        return new MigrationRunner(BUNDLED.stream().map(name -> MigrationScript.of(LOCATION + name)).toList(),
                Clock.systemUTC(), DIALECT);
    }

    /** The newest version recorded in {@code sp_schema_version}; 0 for a database without it. */
    public static int currentVersion(Connection connection) {
        return MigrationRunner.currentVersion(connection, DIALECT);
    }

    /** PostgreSQL's part: an advisory lock per version, {@code to_regclass} for the version table. */
    private static final class PostgresMigrationDialect implements MigrationDialect {

        @Override
        public SQLDialect sql() {
            return SQLDialect.POSTGRES;
        }

        @Override
        public boolean versionTableExists(DSLContext ctx) {
            return ctx.select(DSL.field("to_regclass({0})", Object.class, DSL.inline("sp_schema_version")))
                    .fetchOne(0) != null;
        }

        @Override
        public void begin(Statement st) throws SQLException {
            st.getConnection().setAutoCommit(false);
            st.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
        }

        @Override
        public void commit(Statement st) throws SQLException {
            st.getConnection().commit();
        }

        @Override
        public void rollback(Statement st) throws SQLException {
            st.getConnection().rollback();
        }

        @Override
        public void end(Statement st) throws SQLException {
            st.getConnection().setAutoCommit(true);
        }

        @Override
        public Object appliedAt(Clock clock) {
            return clock.millis();
        }

        @Override
        public List<String> statements(String script) {
            return SqlScript.statements(script, SqlScript.Lexis.POSTGRES);
        }
    }
}

package dev.stillpoint.adapters.sqlite.schema;

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
 * The SQLite catalog's versioned scripts bundled in this module
 * ({@code dev/stillpoint/adapters/sqlite/migrations/V<n>__<description>.sql}), applied by the shared
 * {@link MigrationRunner}. Each pending version runs in its own {@code BEGIN IMMEDIATE} transaction:
 * the write lock is taken before the current version is read, so two processes migrating the same
 * file apply each version once.
 */
public final class Migrations {

    static final String LOCATION = "/dev/stillpoint/adapters/sqlite/migrations/";

    /** The bundled scripts, in order. A test checks this list against the migrations folder. */
    static final List<String> BUNDLED = List.of("V1__catalog.sql", "V2__drop_retry.sql", "V3__commit_sequence.sql",
            "V4__catalog_version.sql", "V5__index_counts.sql");

    private static final MigrationDialect DIALECT = new SqliteMigrationDialect();

    private Migrations() {
    }

    /** The scripts bundled with this module. */
    public static MigrationRunner bundled() {
        return bundled(Clock.systemUTC());
    }

    /** The bundled scripts, recording {@code clock}'s time as each version's application time. */
    public static MigrationRunner bundled(Clock clock) {
        return of(BUNDLED.stream().map(name -> MigrationScript.of(LOCATION + name)).toList(), clock);
    }

    /** Other scripts on SQLite's terms (tests: a broken version). */
    static MigrationRunner of(List<MigrationScript> scripts, Clock clock) {
        return new MigrationRunner(scripts, clock, DIALECT);
    }

    /** The newest version recorded in {@code sp_schema_version}; 0 for a database without it. */
    public static int currentVersion(Connection connection) {
        return MigrationRunner.currentVersion(connection, DIALECT);
    }

    /** SQLite's part: {@code BEGIN IMMEDIATE} as the lock, {@code sqlite_master} for the version table. */
    private static final class SqliteMigrationDialect implements MigrationDialect {

        @Override
        public SQLDialect sql() {
            return SQLDialect.SQLITE;
        }

        @Override
        public boolean versionTableExists(DSLContext ctx) {
            return ctx.fetchExists(DSL.selectOne()
                    .from(DSL.table(DSL.name("sqlite_master")))
                    .where(DSL.field(DSL.name("type"), String.class).eq("table"))
                    .and(DSL.field(DSL.name("name"), String.class).eq("sp_schema_version")));
        }

        @Override
        public void begin(Statement st) throws SQLException {
            st.execute("BEGIN IMMEDIATE");
        }

        @Override
        public void commit(Statement st) throws SQLException {
            st.execute("COMMIT");
        }

        @Override
        public void rollback(Statement st) throws SQLException {
            st.execute("ROLLBACK");
        }

        @Override
        public void end(Statement st) {
            // The connection never left auto-commit mode: BEGIN and COMMIT were statements.
        }

        @Override
        public Object appliedAt(Clock clock) {
            return clock.instant().toString();
        }

        @Override
        public List<String> statements(String script) {
            return SqlScript.statements(script, SqlScript.Lexis.SQLITE);
        }
    }
}

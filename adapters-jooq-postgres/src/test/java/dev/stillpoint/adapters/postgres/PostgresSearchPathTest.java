package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * [L2, O1] Stillpoint's relations stay in the schema of its catalog whatever the login's search path finds first.
 * Found from outside on a PostgreSQL 15 server: login {@code sp} (search path {@code "$user", public}) made a catalog
 * in {@code public}; after {@code CREATE SCHEMA sp}, the next table's data relations went to schema {@code sp}, and a
 * {@code delete-table} over a URL with {@code currentSchema=public} answered "table 't2x' is deleted" while both
 * relations stayed in {@code sp}, holding the item, with no catalog row. Here a URL's {@code currentSchema=late,public}
 * plays the login whose search path gained a schema.
 */
class PostgresSearchPathTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("searchpath");

    @ParameterizedTest
    @EnumSource(Layout.class)
    void l2_aSchemaAddedAheadInTheSearchPathGetsNoRelations(Layout layout) throws Exception {
        try (PostgresStorage plain = PostgresStorage.open(databases.undelayed(layout))) {
            Tables.createActive(plain.tables(), Tables.withIndexes(Tables.uniqueName("first")));
        }
        for (var database : List.of(databases.catalogDatabase(layout), databases.dataDatabase(layout))) {
            try (Connection c = database.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA IF NOT EXISTS late");
            }
        }
        TableDescription table;
        try (PostgresStorage ahead = PostgresStorage.open(withSearchPath(layout, "late,public"))) {
            table = Tables.createActive(ahead.tables(), Tables.withIndexes(Tables.uniqueName("second")));
            ahead.tables().putItem(ACCOUNT, table.tableName(), Tables.item("a", 1, "g", "l"));
        }
        assertThat(schemasOf(layout, table.tableId())).as("[L2] the schema of each relation of the table"
                + " created while 'late' led the search path").isNotEmpty().containsOnly("public");
        try (PostgresStorage plain = PostgresStorage.open(databases.undelayed(layout))) {
            assertThat(plain.tables().getItem(ACCOUNT, table.tableName(), key("a", 1))).as("read over the plain search path")
                    .isPresent();
        }
    }

    /**
     * A relation a build without the pinned schema left in another schema is not dropped by name into nothing: the
     * DeleteTable leaves the table DELETING with its relations, and once the relation is moved back it completes.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void l2_aDeleteTableNeverReportsARelationInAnotherSchemaDropped(Layout layout) throws Exception {
        TableDescription table;
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            table = Tables.createActive(storage.tables(), Tables.withIndexes(Tables.uniqueName("moved")));
            storage.tables().putItem(ACCOUNT, table.tableName(), Tables.item("a", 1, "g", "l"));
            String gsi = "d_" + table.tableId() + "__gsi__0";
            onData(layout, "CREATE SCHEMA IF NOT EXISTS elsewhere", "ALTER TABLE \"" + gsi + "\" SET SCHEMA elsewhere");

            storage.tables().deleteTable(ACCOUNT, table.tableName());

            assertThat(storage.tables().describeTable(ACCOUNT, table.tableName()).status())
                    .as("[L2] the table whose index relation is in another schema").isEqualTo(TableStatus.DELETING);
            assertThat(schemasOf(layout, table.tableId())).as("[L2] its relations, none dropped")
                    .containsExactlyInAnyOrder("public", "public", "elsewhere");

            onData(layout, "ALTER TABLE elsewhere.\"" + gsi + "\" SET SCHEMA public");
            try (Connection c = databases.catalogDatabase(layout).connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE sp_tables SET status_due_at = 0 WHERE table_id = '" + table.tableId() + "'");
            }
        }
        // A new opening's startup recovery runs the drop now due.
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Throwable gone = null;
            while (gone == null && System.nanoTime() < deadline) {
                gone = catchThrowable(() -> storage.tables().describeTable(ACCOUNT, table.tableName()));
                if (gone == null) {
                    Thread.sleep(20); // a poll's interval under the deadline, not a wait for an event
                }
            }
            assertThat(gone).as("[L2] the table, once its relation is back, within 30 s")
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
            assertThat(schemasOf(layout, table.tableId())).as("[L2] its relations, all dropped").isEmpty();
        }
    }

    /** A table an earlier build split that way is not called "removed": its reads say where its relations are. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void l2_aTableWhoseRelationIsInAnotherSchemaSaysWhereItIs(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableDescription table = Tables.createActive(storage.tables(), Tables.withIndexes(Tables.uniqueName("split")));
            storage.tables().putItem(ACCOUNT, table.tableName(), Tables.item("a", 1, "g", "l"));
            String base = "d_" + table.tableId();
            onData(layout, "CREATE SCHEMA IF NOT EXISTS elsewhere", "ALTER TABLE \"" + base + "\" SET SCHEMA elsewhere");

            for (ThrowingCallable read : List.<ThrowingCallable>of(
                    () -> storage.tables().getItem(ACCOUNT, table.tableName(), key("a", 1)),
                    () -> storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName()).close())) {
                assertThat(catchThrowable(read)).isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as(e.getMessage()).isEqualTo(ErrorReason.INTERNAL);
                    assertThat(e.getMessage()).as("[R6] where the relation is and what mends it")
                            .contains("elsewhere." + base).contains("another schema").contains("SET SCHEMA")
                            .doesNotContain("removed outside Stillpoint");
                });
            }
            onData(layout, "ALTER TABLE elsewhere.\"" + base + "\" SET SCHEMA public");
            assertThat(storage.tables().getItem(ACCOUNT, table.tableName(), key("a", 1))).as("moved back").isPresent();
        }
    }

    /** The orphan sweep likewise: a registered relation in another schema is neither "dropped" nor forgotten. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void l2_theOrphanSweepKeepsARelationInAnotherSchemaRegistered(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableDescription table = Tables.createActive(storage.tables(), Tables.withIndexes(Tables.uniqueName("orphan")));
            String base = "d_" + table.tableId();
            onData(layout, "CREATE SCHEMA IF NOT EXISTS elsewhere", "ALTER TABLE \"" + base + "\" SET SCHEMA elsewhere");
            // An orphan as a CreateTable failing at its catalog commit leaves one: its creation begun, no row.
            try (Connection c = databases.catalogDatabase(layout).connect(); Statement s = c.createStatement()) {
                s.execute("DELETE FROM sp_tables WHERE table_id = '" + table.tableId() + "'");
                s.execute("INSERT INTO sp_pending_creations VALUES ('" + table.tableId() + "',"
                        + " (extract(epoch FROM clock_timestamp()) * 1000)::bigint)");
            }

            assertThat(storage.sweepOrphanedRelations()).as("[L2] the sweep drops the relations it can")
                    .containsExactlyInAnyOrder(base + "__gsi__0", base + "__lsi__1");
            assertThat(schemasOf(layout, table.tableId())).as("[L2] the one in another schema stays").containsExactly("elsewhere");
            try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM sp_data_relations WHERE relation_name = '" + base + "'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("[O1] and stays registered, so a later pass drops it once it is back").isEqualTo(1);
            }
        }
    }

    private static PostgresConfig withSearchPath(Layout layout, String searchPath) {
        PostgresConfig plain = databases.undelayed(layout);
        PostgresConfig.Database catalog = withSearchPath(plain.catalog(), searchPath);
        PostgresConfig config = layout == Layout.SHARED ? PostgresConfig.shared(catalog)
                : PostgresConfig.separate(catalog, withSearchPath(plain.data().orElseThrow(), searchPath));
        return config.withConnectionTimeout(plain.connectionTimeout()).withControlPlaneDelay(Duration.ZERO);
    }

    private static PostgresConfig.Database withSearchPath(PostgresConfig.Database db, String searchPath) {
        String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "currentSchema=" + searchPath;
        return new PostgresConfig.Database(url, db.user(), db.password());
    }

    private static void onData(Layout layout, String... statements) throws SQLException {
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    /** The schema of each relation of table {@code tableId} in the data database, one entry per relation. */
    private static List<String> schemasOf(Layout layout, String tableId) throws SQLException {
        List<String> schemas = new ArrayList<>();
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT schemaname FROM pg_tables WHERE tablename LIKE 'd\\_" + tableId + "%'")) {
            while (rs.next()) {
                schemas.add(rs.getString(1));
            }
        }
        return schemas;
    }

    private static RequestKey key(String pk, int sk) {
        return RequestKey.of("pk", AttributeValue.s(pk), "sk", AttributeValue.n(Integer.toString(sk)));
    }
}

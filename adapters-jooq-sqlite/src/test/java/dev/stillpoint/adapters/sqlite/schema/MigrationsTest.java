package dev.stillpoint.adapters.sqlite.schema;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_SCHEMA_VERSION;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_SETTINGS;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.sqlcatalog.MigrationException;
import dev.stillpoint.sqlcatalog.MigrationRunner;
import dev.stillpoint.sqlcatalog.MigrationScript;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

class MigrationsTest {

    private static final List<String> CATALOG_TABLES = List.of(
            "sp_commit_sequence", "sp_indexes", "sp_restore_records", "sp_schema_version", "sp_settings", "sp_tables", "sp_vector_indexes");

    private static final Clock FIXED = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

    @Test
    void in_memory_database_is_migrated_once_and_then_left_alone() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            MigrationRunner migrations = Migrations.bundled(FIXED);

            assertThat(Migrations.currentVersion(c)).isZero();
            assertThat(migrations.apply(c)).containsExactly(1, 2, 3, 4, 5);
            assertThat(migrations.apply(c)).isEmpty();
            assertThat(migrations.apply(c)).isEmpty();

            assertThat(tables(c)).containsAll(CATALOG_TABLES);
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            assertThat(ctx.fetch(SP_SCHEMA_VERSION)).first().satisfies(r -> {
                assertThat(r.getVersion()).isEqualTo(1);
                assertThat(r.getAppliedAt()).isEqualTo("2026-01-02T03:04:05Z");
            });
            assertThat(ctx.select(SP_SETTINGS.VALUE).from(SP_SETTINGS)
                    .where(SP_SETTINGS.NAME.eq("control_plane_delay_ms")).fetchOne(SP_SETTINGS.VALUE))
                    .isEqualTo("250");
            assertThat(c.getAutoCommit()).isTrue();
        }
    }

    @Test
    void file_database_in_wal_mode_is_migrated_once_across_reopens() throws SQLException {
        Path file = TestDatabases.newFile("migrations");
        try (Connection c = TestDatabases.openFile(file)) {
            assertThat(Migrations.bundled().apply(c)).containsExactly(1, 2, 3, 4, 5);
            assertThat(pragma(c, "journal_mode")).isEqualTo("wal");
        }
        try (Connection c = TestDatabases.openFile(file)) {
            assertThat(Migrations.currentVersion(c)).isEqualTo(5);
            assertThat(Migrations.bundled().apply(c)).isEmpty();
            assertThat(tables(c)).containsAll(CATALOG_TABLES);
            assertThat(DSL.using(c, SQLDialect.SQLITE).fetchCount(SP_SCHEMA_VERSION)).isEqualTo(5);
            assertThat(DSL.using(c, SQLDialect.SQLITE).fetchCount(SP_SETTINGS)).isEqualTo(1);
        }
    }

    @Test
    void two_connections_racing_on_one_file_apply_each_version_once() throws Exception {
        Path file = TestDatabases.newFile("migrations-race");
        // The race under test is the migrations'. Two connections switching one new file to WAL at once
        // can get SQLITE_BUSY from the journal-mode switch itself (seen once in CI on a loaded machine),
        // so the file is made a WAL file first; the mode is kept in the file, and no version is applied.
        try (Connection c = TestDatabases.openFile(file)) {
            assertThat(Migrations.currentVersion(c)).isZero();
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Callable<List<Integer>> migrate = () -> {
                try (Connection c = TestDatabases.openFile(file)) {
                    start.await();
                    return Migrations.bundled().apply(c);
                }
            };
            Future<List<Integer>> a = pool.submit(migrate);
            Future<List<Integer>> b = pool.submit(migrate);
            start.countDown();
            List<Integer> applied = Stream.concat(a.get(30, TimeUnit.SECONDS).stream(), b.get(30, TimeUnit.SECONDS).stream()).toList();
            // Each version runs in its own transaction, so one racer may apply V1 and the other V2 to V4:
            // what must hold is that each version was applied exactly once, by whichever connection.
            assertThat(applied).containsExactlyInAnyOrder(1, 2, 3, 4, 5);
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = TestDatabases.openFile(file)) {
            assertThat(DSL.using(c, SQLDialect.SQLITE).fetchCount(SP_SCHEMA_VERSION)).isEqualTo(5);
        }
    }

    @Test
    void the_keys_and_checks_jooq_ignores_are_enforced_by_sqlite() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            Migrations.bundled().apply(c);
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            ctx.execute("PRAGMA foreign_keys=ON");
            insertTable(ctx, "acct", "Music", "t1", "ACTIVE");

            assertThatThrownBy(() -> insertTable(ctx, "acct", "Music", "t2", "ACTIVE"))
                    .isInstanceOf(DataAccessException.class).hasMessageContaining("UNIQUE");
            assertThatThrownBy(() -> insertTable(ctx, "acct", "Other", "t1", "ACTIVE"))
                    .isInstanceOf(DataAccessException.class).hasMessageContaining("UNIQUE");
            assertThatThrownBy(() -> insertTable(ctx, "acct", "Odd", "t3", "GONE"))
                    .isInstanceOf(DataAccessException.class).hasMessageContaining("CHECK");
            insertTable(ctx, "other-acct", "Music", "t4", "CREATING");

            ctx.insertInto(SP_INDEXES)
                    .set(SP_INDEXES.TABLE_ID, "t1").set(SP_INDEXES.INDEX_NAME, "byArtist")
                    .set(SP_INDEXES.KIND, "GSI").set(SP_INDEXES.ORDINAL, 0)
                    .set(SP_INDEXES.RELATION_NAME, "d_t1__gsi__0")
                    .set(SP_INDEXES.PARTITION_KEY_NAME, "artist").set(SP_INDEXES.PARTITION_KEY_TYPE, "S")
                    .set(SP_INDEXES.PROJECTION_JSON, "{\"ProjectionType\":\"ALL\"}")
                    .set(SP_INDEXES.STATUS, "CREATING").set(SP_INDEXES.BACKFILLING, true)
                    .execute();
            assertThat(ctx.select(SP_INDEXES.BACKFILLING).from(SP_INDEXES).fetchOne(SP_INDEXES.BACKFILLING)).isTrue();
            assertThatThrownBy(() -> ctx.insertInto(SP_INDEXES)
                    .set(SP_INDEXES.TABLE_ID, "nope").set(SP_INDEXES.INDEX_NAME, "x")
                    .set(SP_INDEXES.KIND, "GSI").set(SP_INDEXES.ORDINAL, 0)
                    .set(SP_INDEXES.RELATION_NAME, "d_nope__gsi__0")
                    .set(SP_INDEXES.PARTITION_KEY_NAME, "a").set(SP_INDEXES.PROJECTION_JSON, "{}")
                    .set(SP_INDEXES.STATUS, "ACTIVE").execute())
                    .isInstanceOf(DataAccessException.class).hasMessageContaining("FOREIGN KEY");

            ctx.deleteFrom(SP_TABLES).where(SP_TABLES.TABLE_ID.eq("t1")).execute();
            assertThat(ctx.fetchCount(SP_INDEXES)).isZero();
        }
    }

    @Test
    void epoch_millis_columns_hold_64_bit_values() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            Migrations.bundled().apply(c);
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            insertTable(ctx, "acct", "Music", "t1", "CREATING");
            long due = 4_102_444_800_123L;
            ctx.update(SP_TABLES).set(SP_TABLES.STATUS_DUE_AT, due).execute();
            assertThat(ctx.select(SP_TABLES.STATUS_DUE_AT).from(SP_TABLES).fetchOne(SP_TABLES.STATUS_DUE_AT)).isEqualTo(due);
        }
    }

    @Test
    void a_failing_version_is_rolled_back_whole_and_earlier_versions_stay() throws SQLException {
        MigrationRunner migrations = Migrations.of(List.of(
                MigrationScript.of(Migrations.LOCATION + "V1__catalog.sql"),
                MigrationScript.of("/dev/stillpoint/adapters/sqlite/broken/V2__broken.sql")), FIXED);
        try (Connection c = TestDatabases.inMemory()) {
            assertThatThrownBy(() -> migrations.apply(c))
                    .isInstanceOfSatisfying(MigrationException.class, e -> assertThat(e.version()).isEqualTo(2))
                    .hasMessageContaining("V2__broken.sql").hasMessageContaining("statement 2 of 2");

            assertThat(Migrations.currentVersion(c)).isEqualTo(1);
            assertThat(tables(c)).contains("sp_tables").doesNotContain("sp_half_done");
            assertThat(c.getAutoCommit()).isTrue();
        }
    }

    @Test
    void a_database_newer_than_this_build_is_refused() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            Migrations.bundled().apply(c);
            DSL.using(c, SQLDialect.SQLITE).insertInto(SP_SCHEMA_VERSION)
                    .set(SP_SCHEMA_VERSION.VERSION, 99).set(SP_SCHEMA_VERSION.APPLIED_AT, "later").execute();
            assertThatThrownBy(() -> Migrations.bundled().apply(c))
                    .isInstanceOfSatisfying(MigrationException.class, e -> assertThat(e.version()).isEqualTo(99))
                    .hasMessageContaining("newer");
        }
    }

    @Test
    void a_connection_inside_a_transaction_is_refused() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            c.setAutoCommit(false);
            assertThatThrownBy(() -> Migrations.bundled().apply(c)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void the_bundled_list_names_every_script_in_the_migrations_folder() throws IOException, URISyntaxException {
        Path folder = Path.of(MigrationsTest.class.getResource(Migrations.LOCATION).toURI());
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactlyElementsOf(Migrations.BUNDLED.stream().sorted().toList());
        }
        assertThat(Migrations.bundled().latestVersion()).isEqualTo(Migrations.BUNDLED.size());
    }

    @Test
    void script_names_carry_their_version() {
        assertThat(MigrationScript.of("/x/V12__add_things.sql").version()).isEqualTo(12);
        assertThatThrownBy(() -> MigrationScript.of("/x/V0__zero.sql")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MigrationScript.of("/x/catalog.sql")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Migrations.of(List.of(
                MigrationScript.of("/a/V1__a.sql"), MigrationScript.of("/b/V1__b.sql")), FIXED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Migrations.of(List.of(MigrationScript.of("/a/V2__a.sql")), FIXED))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void insertTable(DSLContext ctx, String account, String name, String id, String status) {
        ctx.insertInto(SP_TABLES)
                .set(SP_TABLES.ACCOUNT_ID, account).set(SP_TABLES.TABLE_NAME, name)
                .set(SP_TABLES.TABLE_ID, id).set(SP_TABLES.TABLE_ARN, "arn:aws:dynamodb:local:" + account + ":table/" + name)
                .set(SP_TABLES.RELATION_NAME, "d_" + id).set(SP_TABLES.STATUS, status)
                .set(SP_TABLES.CREATED_AT, 1_700_000_000_000L)
                .set(SP_TABLES.PARTITION_KEY_NAME, "pk").set(SP_TABLES.PARTITION_KEY_TYPE, "S")
                .set(SP_TABLES.ATTRIBUTE_DEFINITIONS_JSON, "[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]")
                .execute();
    }

    static List<String> tables(Connection c) {
        return DSL.using(c, SQLDialect.SQLITE)
                .fetch("select name from sqlite_master where type = 'table' order by name")
                .getValues(0, String.class);
    }

    private static String pragma(Connection c, String name) {
        return DSL.using(c, SQLDialect.SQLITE).fetchValue("PRAGMA " + name).toString();
    }
}

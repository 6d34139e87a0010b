package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code export --postgres} opens PostgreSQL read-only, as it opens a SQLite file [L4]: a role with
 * nothing but SELECT exports, on both layouts, and the catalog and relations are as before; a write on
 * a read-only opening is refused UNSUPPORTED even for a role that could write; a catalog that was never
 * migrated is refused, not migrated.
 */
class PostgresReadOnlyTest {

    private static final String SECRET = "ro-Secret";

    @Test
    void l4_aRoleWithOnlySelectExportsFromTheSharedLayoutAndNothingChanges() throws Exception {
        String url = CliPg.newDatabase("ro_shared", SECRET);
        ExportBackendsTest.load("--postgres", url);
        String reader = readerOf(url);
        List<String> before = state(url);

        Path out = Cli.scratch("pg-ro-shared").resolve("out");
        Cli.Run run = Cli.run("export", "--postgres", as(url, reader), "--table", "things", "--out", out.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readAllLines(out.resolve("items.jsonl")).stream().map(ItemJson::decode)).hasSize(5);
        assertThat(state(url)).as("catalog rows and relations after the export").isEqualTo(before);
    }

    @Test
    void l4_aRoleWithOnlySelectExportsFromTheSeparateLayoutAndNothingChanges() throws Exception {
        String catalog = CliPg.newDatabase("ro_catalog", SECRET);
        String data = CliPg.newDatabase("ro_data", SECRET);
        ExportBackendsTest.load("--postgres", catalog, "--data-url", data);
        String reader = readerOf(catalog);
        grantSelect(data, reader);
        List<String> before = state(catalog);
        List<String> dataBefore = state(data);

        Path out = Cli.scratch("pg-ro-separate").resolve("out");
        Cli.Run run = Cli.run("export", "--postgres", as(catalog, reader), "--data-url", as(data, reader),
                "--table", "things", "--out", out.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readAllLines(out.resolve("items.jsonl"))).hasSize(5);
        assertThat(state(catalog)).isEqualTo(before);
        assertThat(state(data)).isEqualTo(dataBefore);
    }

    @Test
    void l4_aWriteOnAReadOnlyOpeningIsUnsupportedAndANewDatabaseIsNotMigrated() throws Exception {
        String url = CliPg.newDatabase("ro_write", SECRET);
        ExportBackendsTest.load("--postgres", url);
        List<String> before = state(url);
        try (PostgresStorage storage = PostgresStorage.openReadOnly(config(url))) {
            assertThat(storage.readOnly()).isTrue();
            assertThat(storage.tables().listTables(StorageCommand.DEFAULT_ACCOUNT)).containsExactly("things");
            assertThatThrownBy(() -> storage.tables().putItem(StorageCommand.DEFAULT_ACCOUNT, "things",
                    ItemJson.decode("{\"pk\":{\"S\":\"new\"},\"sk\":{\"N\":\"1\"}}")))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED));
        }
        assertThat(state(url)).isEqualTo(before);

        String empty = CliPg.newDatabase("ro_empty", SECRET);
        assertThatThrownBy(() -> PostgresStorage.openReadOnly(config(empty)).close())
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).contains("holds no Stillpoint catalog").doesNotContain(SECRET);
                });
        assertThat(state(empty)).as("never migrated").isEmpty();
        Cli.Run list = Cli.run("list-tables", "--postgres", empty);
        assertThat(list.code()).as(list.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        Path out = Cli.scratch("pg-ro-empty").resolve("out");
        Cli.Run export = Cli.run("export", "--postgres", empty, "--table", "things", "--out", out.toString());
        assertThat(export.code()).as(export.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(export.err()).contains("holds no Stillpoint catalog").doesNotContain(SECRET);
        assertThat(state(empty)).as("neither command migrated it").isEmpty();
    }

    private static PostgresConfig config(String url) {
        return PostgresConfig.shared(new PostgresConfig.Database(url, null, null));
    }

    /** A new role that may log in and SELECT the database's tables, and nothing else. */
    private static String readerOf(String url) throws SQLException {
        String role = "reader_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN");
        }
        grantSelect(url, role);
        return role;
    }

    private static void grantSelect(String url, String role) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
            s.execute("GRANT USAGE ON SCHEMA public TO " + role);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role);
        }
    }

    private static String as(String url, String role) {
        return url.replace("user=postgres", "user=" + role);
    }

    /** Every relation of schema public with its row count, and every catalog row, as text. */
    private static List<String> state(String url) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            List<String> relations = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace"
                    + " AND relkind = 'r' ORDER BY relname")) {
                while (rs.next()) {
                    relations.add(rs.getString(1));
                }
            }
            for (String relation : relations) {
                try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(sum(hashtext(t::text)), 0) FROM \""
                        + relation + "\" t")) {
                    rs.next();
                    out.add(relation + " " + rs.getLong(1) + " rows, hash " + rs.getLong(2));
                }
            }
        }
        return out;
    }
}

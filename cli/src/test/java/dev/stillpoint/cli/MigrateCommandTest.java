package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * After an upgrade of Stillpoint, the read-only commands refuse a database of the build before [L4] (found from
 * outside: `describe` of a file written before the index counts' migration said "open it read-write once", and
 * no command only did that): the refusal names {@code stillpoint migrate}, which opens the database read-write
 * once, and the read-only commands then read it. The database of the build before is made by hand: the newest
 * migration's version row and columns removed.
 */
class MigrateCommandTest {

    private static final String SECRET = "mig-Secret";

    @Test
    void aSqliteFileOfTheBuildBeforeIsRefusedNamingMigrateThenMigratedAndRead() throws Exception {
        Path db = Cli.scratch("migrate").resolve("db.sqlite");
        ExportBackendsTest.load("--sqlite", db.toString());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("DELETE FROM sp_schema_version WHERE version = 5");
            s.execute("ALTER TABLE sp_indexes DROP COLUMN item_count");
            s.execute("ALTER TABLE sp_indexes DROP COLUMN size_bytes");
        }

        Cli.Run refused = Cli.run("describe", "--sqlite", db.toString(), "--table", "things");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(refused.err()).contains("is at schema version 4 and this build reads version 5")
                .contains("`stillpoint migrate` with the same database options").endsWith("[ValidationException]\n");

        Cli.Run migrate = Cli.run("migrate", "--sqlite", db.toString());
        assertThat(migrate.code()).as(migrate.err()).isZero();
        assertThat(migrate.out()).isEqualTo(db + " is at this build's schema version\n");
        Cli.Run again = Cli.run("migrate", "--sqlite", db.toString());
        assertThat(again.code()).as("a second migrate finds nothing to do: %s", again.err()).isZero();

        Cli.Run describe = Cli.run("describe", "--sqlite", db.toString(), "--table", "things");
        assertThat(describe.code()).as(describe.err()).isZero();
        assertThat(describe.out()).contains("\"IndexName\" : \"by-cat\"");
        Cli.Run list = Cli.run("list-tables", "--sqlite", db.toString());
        assertThat(list.out().lines()).containsExactly("things");
    }

    @Test
    void aPostgresCatalogOfTheBuildBeforeIsRefusedNamingMigrateThenMigratedAndRead() throws Exception {
        String url = CliPg.newDatabase("migrate_old", SECRET);
        ExportBackendsTest.load("--postgres", url);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DELETE FROM sp_schema_version WHERE version = 5");
            s.execute("DROP TABLE sp_pending_creations");
        }

        Cli.Run refused = Cli.run("list-tables", "--postgres", url);
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(refused.err()).contains("at schema version 4, not this build's 5")
                .contains("`stillpoint migrate` with the same database options").doesNotContain(SECRET);

        Cli.Run migrate = Cli.run("migrate", "--postgres", url);
        assertThat(migrate.code()).as(migrate.err()).isZero();
        assertThat(migrate.out()).endsWith(" is at this build's schema version\n").doesNotContain(SECRET);

        Cli.Run list = Cli.run("list-tables", "--postgres", url);
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out().lines()).containsExactly("things");
    }
}

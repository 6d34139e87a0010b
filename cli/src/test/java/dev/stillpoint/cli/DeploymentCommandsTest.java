package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 through the command line, as a new user met it: a mistyped {@code --data-url} naming
 * another deployment's catalog [O1]; a write command on a SQLite file that is not Stillpoint's [O4];
 * options checked before anything is created, and a failed export leaving no directory it made.
 * Each test failed on the code before issue 25 (each says how).
 */
class DeploymentCommandsTest {

    // [O1] Finding 1 exactly: a shared-layout deployment "victim" holds table Precious; create-table on
    // catalog app2 with --data-url naming victim. Before: exit 0, and app2's orphan sweep dropped
    // Precious's relations ("victim's table exports every item" failed: exit 3, Table not found).
    // Now: exit 4 naming victim as a catalog, and Precious exports whole.
    @Test
    void o1_aMistypedDataUrlNamingAnotherCatalogIsRefusedAndTheVictimIsIntact() throws Exception {
        String victim = CliPg.newDatabase("victim", "pw");
        String app2 = CliPg.newDatabase("app2", "pw");
        Cli.Run created = Cli.run("create-table", "--postgres", victim, "--table", "Precious", "--key", "pk:S");
        assertThat(created.code()).as(created.err()).isZero();
        for (int i = 0; i < 20; i++) {
            Cli.Run put = Cli.run("put", "--postgres", victim, "--table", "Precious", "--item",
                    "{\"pk\":{\"S\":\"k" + i + "\"}}");
            assertThat(put.code()).as(put.err()).isZero();
        }

        Cli.Run oops = Cli.run("create-table", "--postgres", app2, "--data-url", victim, "--table", "Oops",
                "--key", "pk:S");
        assertThat(oops.code()).as(oops.out() + oops.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(oops.err()).contains("holds a Stillpoint catalog of its own").doesNotContain("password=pw");

        Path out = Cli.scratch("victim-export").resolve("dump");
        Cli.Run export = Cli.run("export", "--postgres", victim, "--table", "Precious", "--out", out.toString());
        assertThat(export.code()).as("victim's table exports every item: " + export.err()).isZero();
        assertThat(Files.readAllLines(out.resolve("items.jsonl"))).hasSize(20);
    }

    // [O4] Finding 4: put on a plain SQLite database holding a user table. Before: exit 3 (Table not
    // found) after adding 7 sp_* tables to the file ("left byte-equal" failed). Now: exit 4 naming
    // the file and its table, and the file is byte-equal.
    @Test
    void o4_aWriteCommandNeverConvertsAForeignSqliteFile() throws Exception {
        Path dir = Cli.scratch("foreign");
        Path plain = dir.resolve("plain.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + plain); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");
            s.execute("INSERT INTO users (name) VALUES ('ada')");
        }
        byte[] before = Files.readAllBytes(plain);
        for (String[] command : new String[][] {
                {"put", "--sqlite", plain.toString(), "--table", "Things", "--item", "{\"pk\":{\"S\":\"a\"}}"},
                {"create-table", "--sqlite", plain.toString(), "--table", "Things", "--key", "pk:S"},
                {"delete-table", "--sqlite", plain.toString(), "--table", "Things"}}) {
            Cli.Run run = Cli.run(command);
            assertThat(run.code()).as(command[0] + ": " + run.err()).isEqualTo(ExitCodes.DATABASE_FILE);
            assertThat(run.err()).as(command[0]).contains("plain.sqlite").contains("not a Stillpoint database")
                    .contains("users");
            assertThat(Files.readAllBytes(plain)).as(command[0] + ": the file is left byte-equal").isEqualTo(before);
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no -wal or -shm made").containsExactly("plain.sqlite");
        }

        // An empty SQLite database is initialised only by a command that creates a table.
        Path empty = dir.resolve("empty.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + empty); Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = 0");
            s.execute("VACUUM");
        }
        Cli.Run put = Cli.run("put", "--sqlite", empty.toString(), "--table", "Things", "--item", "{\"pk\":{\"S\":\"a\"}}");
        assertThat(put.code()).as(put.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(put.err()).contains("empty database");
        Cli.Run create = Cli.run("create-table", "--sqlite", empty.toString(), "--table", "Things", "--key", "pk:S");
        assertThat(create.code()).as(create.err()).isZero();

        // So is a zero-byte file (touch, mktemp), an empty database to SQLite: found from outside, the CLI refused
        // it "not a SQLite database (it is empty)", exit 4, where the library initialises it.
        Path zero = Files.createFile(dir.resolve("zero.sqlite"));
        Cli.Run putZero = Cli.run("put", "--sqlite", zero.toString(), "--table", "Things", "--item", "{\"pk\":{\"S\":\"a\"}}");
        assertThat(putZero.code()).as(putZero.err()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(Files.size(zero)).as("a refused put leaves the zero-byte file as it was").isZero();
        Cli.Run createZero = Cli.run("create-table", "--sqlite", zero.toString(), "--table", "Things", "--key", "pk:S");
        assertThat(createZero.code()).as(createZero.err()).isZero();
        assertThat(Cli.run("describe", "--sqlite", zero.toString(), "--table", "Things").code()).isZero();
    }

    // Finding 5: --wait=-1 is refused before anything is created. Before: exit 1 "still CREATING after
    // -1 s" with the table (and the file) left behind ("no database file made" failed).
    @Test
    void aNegativeWaitIsRefusedBeforeAnythingIsCreated() {
        Path db = Cli.scratch("wait").resolve("w.sqlite");
        Cli.Run run = Cli.run("create-table", "--sqlite", db.toString(), "--table", "Things", "--key", "pk:S", "--wait=-1");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--wait").contains("-1");
        assertThat(db).as("no database file made").doesNotExist();
    }

    // Finding 5: an export of a table that does not exist leaves no directory it made. Before: exit 3
    // and an empty nope-out/ ("no directory left" failed). A directory that was there stays.
    @Test
    void aFailedExportLeavesNoDirectoryItMade() throws Exception {
        Path dir = Cli.scratch("nope");
        Path db = dir.resolve("db.sqlite");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "Things", "--key", "pk:S").code()).isZero();
        Path out = dir.resolve("nope-out");
        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "Nope", "--out", out.toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        assertThat(out).as("no directory left").doesNotExist();

        Path existing = Files.createDirectories(dir.resolve("existing"));
        Cli.Run again = Cli.run("export", "--sqlite", db.toString(), "--table", "Nope", "--out", existing.toString());
        assertThat(again.code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        assertThat(existing).as("a directory that was there stays").isDirectory();
    }
}

package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.table.TableStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * [L4] {@code export}, {@code describe} and {@code list-tables} are read-only: a SQLite file that is not a
 * Stillpoint database is refused by name (exit 4) and its directory is byte-equal before and after
 * (sha256 of every file, and the listing); a Stillpoint database keeps its bytes, its journal mode and
 * a DELETING table's data through an export.
 */
class ReadOnlyCommandsTest {

    private static Map<String, String> listing(Path dir) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                files.put(p.getFileName().toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
            }
        }
        return files;
    }

    private static Path foreign(Path dir, String name, boolean wal) throws Exception {
        Path file = dir.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            if (wal) {
                s.execute("PRAGMA journal_mode=WAL");
            }
            s.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT)");
            s.execute("INSERT INTO things (name) VALUES ('ada'), ('grace')");
        }
        return file;
    }

    @Test
    void l4_aForeignFileIsRefusedByNameByEveryReadOnlyCommandAndLeftByteEqual() throws Exception {
        for (boolean wal : new boolean[] {false, true}) {
            Path dir = Cli.scratch("foreign");
            Path file = foreign(dir, wal ? "people-wal.sqlite" : "people.sqlite", wal);
            Path out = Cli.scratch("foreign-out").resolve("out");
            Map<String, String> before = listing(dir);
            assertThat(before).containsOnlyKeys(file.getFileName().toString());

            List<String[]> commands = List.of(
                    new String[] {"export", "--sqlite", file.toString(), "--table", "things", "--out", out.toString()},
                    new String[] {"describe", "--sqlite", file.toString(), "--table", "things"},
                    new String[] {"list-tables", "--sqlite", file.toString()});
            for (String[] command : commands) {
                Cli.Run run = Cli.run(command);

                assertThat(run.code()).as("%s on a foreign file (WAL %s): %s", command[0], wal, run.err())
                        .isEqualTo(ExitCodes.DATABASE_FILE);
                assertThat(run.err().lines()).singleElement().asString()
                        .startsWith("stillpoint " + command[0] + ": file " + file + " is not a Stillpoint database")
                        .endsWith("[ValidationException]");
                assertThat(run.out()).isEmpty();
                assertThat(listing(dir)).as("%s left the directory as it was", command[0]).isEqualTo(before);
            }
            assertThat(out).as("a refused export creates no output directory").doesNotExist();
        }
    }

    @Test
    void l4_exportDescribeAndListLeaveAStillpointDatabaseAndItsDeletingTableAlone() throws Exception {
        Path dir = Cli.scratch("stillpoint-ro");
        Path db = dir.resolve("db.sqlite");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S").code()).isZero();
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "leaving", "--key", "pk:S").code()).isZero();
        for (String table : List.of("things", "leaving")) {
            Cli.Run put = Cli.run("put", "--sqlite", db.toString(), "--table", table,
                    "--item", "{\"pk\":{\"S\":\"a\"}}", "--item", "{\"pk\":{\"S\":\"b\"}}");
            assertThat(put.code()).as(put.err()).isZero();
        }
        String relation;
        // DELETING, its drop due in an hour: an export that ran pending control-plane work early would be wrong
        // anyway, and one that ran it at all would need the write the read-only opening refuses.
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db).withControlPlaneDelay(Duration.ofHours(1)))) {
            assertThat(storage.tables().deleteTable(StorageCommand.DEFAULT_ACCOUNT, "leaving").status())
                    .isEqualTo(TableStatus.DELETING);
            relation = "d_" + storage.tables().describeTable(StorageCommand.DEFAULT_ACCOUNT, "leaving").tableId();
        }
        Map<String, String> before = listing(dir);
        assertThat(before).containsOnlyKeys("db.sqlite");

        Cli.Run export = Cli.run("export", "--sqlite", db.toString(), "--table", "things", "--out", dir.resolve("out").toString());
        Cli.Run exportDeleting = Cli.run("export", "--sqlite", db.toString(), "--table", "leaving",
                "--out", dir.resolve("out2").toString());
        Cli.Run describe = Cli.run("describe", "--sqlite", db.toString(), "--table", "leaving");
        Cli.Run list = Cli.run("list-tables", "--sqlite", db.toString());

        assertThat(export.code()).as(export.err()).isZero();
        assertThat(exportDeleting.code()).as(exportDeleting.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(exportDeleting.err()).contains("DELETING");
        assertThat(describe.code()).isZero();
        assertThat(describe.out()).contains("\"TableStatus\" : \"DELETING\"");
        assertThat(list.out().lines()).containsExactly("leaving", "things");

        Map<String, String> after = listing(dir);
        assertThat(after.get("db.sqlite")).as("the database file is byte-equal").isEqualTo(before.get("db.sqlite"));
        // A WAL read needs -wal and -shm: SQLite creates them in a writable directory (ARCHITECTURE.md), empty of commits.
        assertThat(after.keySet()).isSubsetOf("db.sqlite", "db.sqlite-wal", "db.sqlite-shm");
        if (after.containsKey("db.sqlite-wal")) {
            assertThat(Files.size(dir.resolve("db.sqlite-wal"))).isZero();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toUri() + "?mode=ro");
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("wal");
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + relation)) {
                rs.next();
                assertThat(rs.getInt(1)).as("the DELETING table's data is still there").isEqualTo(2);
            }
        }
    }
}

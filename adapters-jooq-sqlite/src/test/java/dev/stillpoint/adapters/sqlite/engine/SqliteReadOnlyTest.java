package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.ACCOUNT;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.awaitActive;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.item;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.TimeSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * [L4] {@link SqliteStorage#openReadOnly}: no migration, no persistent pragma, no control-plane work,
 * nothing written; a foreign file refused by name and left byte-equal, directory listing included.
 */
class SqliteReadOnlyTest {

    /** A clock a year ahead: any due control-plane work would be done at once if anything ran it. */
    private static final TimeSource A_YEAR_LATER = new TimeSource() {
        @Override
        public Instant now() {
            return Instant.now().plus(Duration.ofDays(365));
        }

        @Override
        public long monotonicNanos() {
            return System.nanoTime();
        }
    };

    private static SqliteConfig readOnly(Path file) {
        return SqliteConfig.file(file).withPool(2, 1).withControlPlaneDelay(Duration.ZERO).withTime(A_YEAR_LATER);
    }

    private static Path dirOf(String label) throws IOException {
        return Files.createDirectories(TestDatabases.newFile(label).resolveSibling(label + "-" + System.nanoTime()));
    }

    /** Every file in the database's directory, with its sha256. */
    private static Map<String, String> listing(Path dir) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                files.put(p.getFileName().toString(), sha256(p));
            }
        }
        return files;
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static void foreign(Path file, boolean wal) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            if (wal) {
                s.execute("PRAGMA journal_mode=WAL");
            }
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)");
            s.execute("INSERT INTO people (name) VALUES ('ada'), ('grace')");
        }
    }

    @Test
    void l4_aForeignFileIsRefusedByNameAndLeftByteEqual() throws Exception {
        for (boolean wal : new boolean[] {false, true}) {
            Path dir = dirOf("foreign");
            Path file = dir.resolve(wal ? "wal people.db" : "people.db");
            foreign(file, wal);
            Map<String, String> before = listing(dir);
            assertThat(before).containsOnlyKeys(file.getFileName().toString()); // a clean close leaves no -wal

            assertThatThrownBy(() -> SqliteStorage.openReadOnly(readOnly(file)))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("not a Stillpoint database");

            assertThat(listing(dir)).as("journal mode WAL: %s", wal).isEqualTo(before);
        }
    }

    @Test
    void l4_anOlderOrNewerSchemaIsRefusedNotMigrated() throws Exception {
        Path dir = dirOf("versions");
        Path older = dir.resolve("older.db");
        Path newer = dir.resolve("newer.db");
        for (Path p : List.of(older, newer)) {
            SqliteStorage.open(SqliteConfig.file(p)).close();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + older); Statement s = c.createStatement()) {
            s.execute("DROP TABLE sp_commit_sequence"); // what version 2 looked like
            s.execute("DELETE FROM sp_schema_version WHERE version >= 3");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + newer); Statement s = c.createStatement()) {
            s.execute("INSERT INTO sp_schema_version (version, applied_at) VALUES (99, 'later')");
        }
        Map<String, String> before = listing(dir);

        assertThatThrownBy(() -> SqliteStorage.openReadOnly(readOnly(older)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining(older.toString()).hasMessageContaining("schema version 2")
                .hasMessageContaining("never migrates");
        assertThatThrownBy(() -> SqliteStorage.openReadOnly(readOnly(newer)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining(newer.toString()).hasMessageContaining("schema version 99");
        assertThatThrownBy(() -> SqliteStorage.openReadOnly(readOnly(dir.resolve("absent.db"))))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessageContaining("absent.db");

        assertThat(listing(dir)).isEqualTo(before);
    }

    @Test
    void l4_aStillpointDatabaseIsReadAndNothingInItChanges() throws Exception {
        Path dir = dirOf("stillpoint");
        Path file = dir.resolve("db.sqlite");
        String deletingRelation;
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            storage.tables().createTable(orders("leaving"));
            awaitActive(storage, "leaving");
            for (int i = 0; i < 30; i++) {
                storage.tables().putItem(ACCOUNT, "orders", item("p" + (i % 3), Integer.toString(i), "v"));
                storage.tables().putItem(ACCOUNT, "leaving", item("q", Integer.toString(i), "v"));
            }
            deletingRelation = "d_" + storage.tables().describeTable(ACCOUNT, "leaving").tableId();
        }
        // DELETING with its drop due in a minute: only control-plane work could drop it.
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ofMinutes(1)))) {
            assertThat(storage.tables().deleteTable(ACCOUNT, "leaving").status()).isEqualTo(TableStatus.DELETING);
        }
        String fileBefore = sha256(file);
        assertThat(listing(dir)).containsOnlyKeys("db.sqlite");

        String marker;
        try (SqliteStorage ro = SqliteStorage.openReadOnly(readOnly(file))) {
            assertThat(ro.readOnly()).isTrue();
            assertThat(ro.tables().listTables(ACCOUNT)).containsExactly("leaving", "orders");
            assertThat(ro.tables().describeTable(ACCOUNT, "leaving").status()).isEqualTo(TableStatus.DELETING);
            assertThat(ro.tables().getItem(ACCOUNT, "orders", RequestKey.of("pk", AttributeValue.s("p1"), "sk", AttributeValue.N.of("1")))).isPresent();
            List<String> items = new ArrayList<>();
            try (TableSnapshot s = ro.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                marker = s.info().marker();
                s.items().forEachRemaining(i -> items.add(i.json()));
            }
            assertThat(items).hasSize(30);
            for (Runnable write : List.<Runnable>of(
                    () -> ro.tables().putItem(ACCOUNT, "orders", item("x", "1", "v")),
                    () -> ro.tables().deleteItem(ACCOUNT, "orders", RequestKey.of("pk", AttributeValue.s("p1"), "sk", AttributeValue.N.of("1"))),
                    () -> ro.tables().createTable(orders("new")),
                    () -> ro.tables().deleteTable(ACCOUNT, "orders"))) {
                assertThatThrownBy(write::run).isInstanceOfSatisfying(StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED)).hasMessageContaining("read-only");
            }
        }

        // The file is byte-equal; the WAL mode is untouched (header bytes 18, 19 = 2); SQLite made the
        // -wal/-shm a WAL read needs (the directory is writable) and left them empty of commits.
        assertThat(sha256(file)).isEqualTo(fileBefore);
        Map<String, String> after = listing(dir);
        assertThat(after.keySet()).isSubsetOf("db.sqlite", "db.sqlite-wal", "db.sqlite-shm");
        if (after.containsKey("db.sqlite-wal")) {
            assertThat(Files.size(dir.resolve("db.sqlite-wal"))).isZero();
        }
        // No control-plane work ran though the drop was due on the read-only opening's clock.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toUri() + "?mode=ro");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + deletingRelation)) {
            rs.next();
            assertThat(rs.getInt(1)).as("the DELETING table's data").isEqualTo(30);
        }
        // A read-write opening later sees the same commits: same marker.
        try (SqliteStorage rw = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ofMinutes(1)));
             TableSnapshot s = rw.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
            assertThat(s.info().marker()).isEqualTo(marker);
        }
    }

    @Test
    void l4_readOnlyReadsWhatALiveWriterCommitted() throws Exception {
        Path file = TestDatabases.newFile("live-writer");
        try (SqliteStorage rw = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            rw.tables().createTable(orders("orders"));
            awaitActive(rw, "orders");
            rw.tables().putItem(ACCOUNT, "orders", item("p", "1", "v"));
            try (SqliteStorage ro = SqliteStorage.openReadOnly(readOnly(file))) {
                String first;
                try (TableSnapshot s = ro.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                    first = s.info().marker();
                }
                rw.tables().putItem(ACCOUNT, "orders", item("p", "2", "v"));
                try (TableSnapshot s = ro.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                    assertThat(s.info().marker()).isNotEqualTo(first);
                    List<String> items = new ArrayList<>();
                    s.items().forEachRemaining(i -> items.add(i.json()));
                    assertThat(items).hasSize(2);
                }
            }
        }
    }

    @Test
    void l4_anInMemoryConfigurationCannotBeOpenedReadOnly() {
        assertThatThrownBy(() -> SqliteStorage.openReadOnly(SqliteConfig.inMemory()))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining("in-memory");
    }
}

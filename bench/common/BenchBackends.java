import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.properties.bench.BenchItems;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The steps the library benches share (compiled from source beside each of them): the backends they run on
 * (a SQLite file; an embedded PostgreSQL with fsync and synchronous_commit on, shared layout), the bench table
 * loaded through the restore's bulk port, and the machine's load average and scratch files.
 */
final class BenchBackends {

    static final String ACCOUNT = "000000000000";
    static final String TABLE = "bench";

    /** One backend's part of a bench. */
    interface Part {
        void run(String backend, Storage storage) throws Exception;
    }

    private BenchBackends() {
    }

    /** Runs {@code part} on SQLite and PostgreSQL, or the one {@code which} names ("sqlite", "postgres"). */
    static void each(Path work, String name, String which, Part part) throws Exception {
        if (!which.equals("postgres")) {
            Path db = work.resolve(name + ".db");
            deleteSqlite(db);
            try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
                part.run("SQLite", storage);
            } finally {
                deleteSqlite(db);
            }
        }
        if (!which.equals("sqlite")) {
            try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(work.resolve(name + "-pg"))
                    .setCleanDataDirectory(true).setPGStartupWait(Duration.ofSeconds(90))
                    .setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on").start()) {
                String base = "jdbc:postgresql://localhost:" + pg.getPort() + "/";
                try (Connection c = DriverManager.getConnection(base + "postgres?user=postgres");
                     Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + name);
                }
                PostgresConfig config = PostgresConfig.shared(
                        new PostgresConfig.Database(base + name + "?user=postgres", null, null));
                try (PostgresStorage storage = PostgresStorage.open(config)) {
                    part.run("PostgreSQL (shared layout)", storage);
                }
            }
        }
    }

    /** The bench table (pk S, sk N, one GSI on email) holding BenchItems 0..items-1, through the bulk port. */
    static void loadTable(Storage storage, int items) {
        CreateTableRequest definition = CreateTableRequest.builder(ACCOUNT, TABLE)
                .partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .globalIndex("by_email", "email", ScalarType.S, Projection.all()).build();
        RestoreLoad load = storage.restores().begin(definition,
                new RestoreOrigin(Optional.empty(), Optional.empty(), Instant.now()));
        List<Item> page = new ArrayList<>(1000);
        for (int i = 0; i < items; i++) {
            page.add(BenchItems.item(i));
            if (page.size() == 1000) {
                load.write(page);
                page.clear();
            }
        }
        if (!page.isEmpty()) {
            load.write(page);
        }
        load.complete();
    }

    static String loadAverage() throws Exception {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    static void deleteSqlite(Path db) throws Exception {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Files.deleteIfExists(Path.of(db + suffix));
        }
    }

    static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}

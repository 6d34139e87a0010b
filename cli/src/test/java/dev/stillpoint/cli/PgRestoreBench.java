package dev.stillpoint.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The PostgreSQL half of {@code bench/restore.sh} (issue 14):
 * {@code PgRestoreBench EXPORT_DIR RUNS STILLPOINT WORK_DIR}. Starts an embedded PostgreSQL (io.zonky.test,
 * as the tests start one, but with PostgreSQL's default durability: fsync and synchronous_commit on), and per
 * run, in a fresh database: {@code STILLPOINT restore --from EXPORT_DIR --postgres URL} (a new JVM, JVM
 * start included, timed end to end); then the restored table's relations are copied out (not timed) and
 * {@code COPY FROM} loads the same rows into tables made {@code LIKE} them {@code INCLUDING ALL} (same
 * columns, keys and indexes), timed. Prints the figures; asserts nothing but that the table is ACTIVE.
 */
public final class PgRestoreBench {

    private PgRestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        Path export = Path.of(args[0]);
        int runs = Integer.parseInt(args[1]);
        String stillpoint = args[2];
        Path work = Path.of(args[3]);
        long items;
        try (var lines = Files.lines(export.resolve("items.jsonl"))) {
            items = lines.count();
        }
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(work.resolve("pg-restore-data"))
                .setCleanDataDirectory(true).setServerConfig("max_connections", "50")
                // io.zonky's builder turns both off by default; a server people restore into has them on.
                .setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on").start()) {
            String base = "jdbc:postgresql://localhost:" + pg.getPort() + "/";
            try (Connection c = DriverManager.getConnection(base + "postgres?user=postgres");
                 Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version(),"
                         + " current_setting('fsync'), current_setting('synchronous_commit')")) {
                rs.next();
                System.out.printf("server: %s; fsync %s, synchronous_commit %s%n", rs.getString(1).split(",")[0],
                        rs.getString(2), rs.getString(3));
            }
            for (int run = 1; run <= runs; run++) {
                run(run, items, export, stillpoint, work, base);
            }
        }
    }

    private static void run(int run, long items, Path export, String stillpoint, Path work, String base)
            throws Exception {
        String db = "restore_run_" + run;
        admin(base, "CREATE DATABASE " + db);
        String url = base + db + "?user=postgres";
        Path log = work.resolve("pg-restore-" + run + ".log");
        long started = System.nanoTime();
        Process p = new ProcessBuilder(stillpoint, "restore", "--from", export.toString(), "--postgres", url,
                "--table", "restored").redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        int code = p.waitFor();
        double restoreSeconds = (System.nanoTime() - started) / 1e9;
        if (code != 0) {
            throw new IllegalStateException("restore exited " + code + ", see " + log);
        }
        double copySeconds;
        long copied = 0;
        String status;
        List<String> relations = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT status, table_id FROM sp_tables WHERE table_name = 'restored'")) {
                rs.next();
                status = rs.getString(1);
                String id = rs.getString(2);
                try (Statement r = c.createStatement(); ResultSet names = r.executeQuery("SELECT relname FROM pg_class"
                        + " WHERE relkind = 'r' AND relname LIKE 'd\\_" + id + "%' ORDER BY relname")) {
                    while (names.next()) {
                        relations.add(names.getString(1));
                    }
                }
            }
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            List<Path> files = new ArrayList<>();
            for (String relation : relations) {
                Path file = work.resolve("pg-copy-" + relation + ".bin");
                try (OutputStream out = Files.newOutputStream(file)) {
                    copy.copyOut("COPY \"" + relation + "\" TO STDOUT (FORMAT binary)", out);
                }
                files.add(file);
                s.execute("CREATE TABLE \"c_" + relation + "\" (LIKE \"" + relation + "\" INCLUDING ALL)");
            }
            long copyStart = System.nanoTime();
            for (int i = 0; i < relations.size(); i++) {
                try (InputStream in = Files.newInputStream(files.get(i))) {
                    copied += copy.copyIn("COPY \"c_" + relations.get(i) + "\" FROM STDIN (FORMAT binary)", in);
                }
            }
            copySeconds = (System.nanoTime() - copyStart) / 1e9;
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        }
        String said = Files.readAllLines(log).stream().filter(l -> l.contains("items/s")).reduce((a, b) -> b).orElse("");
        System.out.printf("run %d: restore %.1f s (%.0f items/s, table %s) | COPY FROM %.1f s (%d rows into %d"
                        + " relations, %.0f rows/s) | restore/COPY wall %.1fx%n", run, restoreSeconds,
                items / restoreSeconds, status, copySeconds, copied, relations.size(), copied / copySeconds,
                restoreSeconds / copySeconds);
        System.out.println("  the CLI said: " + said.strip());
        admin(base, "DROP DATABASE " + db);
    }

    private static void admin(String base, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(base + "postgres?user=postgres"); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}

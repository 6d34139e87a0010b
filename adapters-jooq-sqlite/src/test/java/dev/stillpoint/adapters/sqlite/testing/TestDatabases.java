package dev.stillpoint.adapters.sqlite.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** Opens real SQLite databases for tests: in memory, or as files under the module's build folder. */
public final class TestDatabases {

    private TestDatabases() {
    }

    public static Connection inMemory() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    /** A fresh, not yet existing database file under {@code target/sqlite-tests/}. */
    public static Path newFile(String label) {
        String buildDir = System.getenv().getOrDefault("STILLPOINT_BUILD_DIR", "target");
        Path dir = Path.of(buildDir, "sqlite-tests");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.resolve(label + "-" + UUID.randomUUID() + ".db");
    }

    /**
     * Opens a file database the way the adapter will: WAL journal (readers pin a snapshot and never
     * block the writer, Q1), foreign keys enforced, a busy timeout instead of immediate SQLITE_BUSY.
     */
    public static Connection openFile(Path file) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement st = connection.createStatement()) {
            st.execute("PRAGMA busy_timeout=5000");
            try (ResultSet rs = st.executeQuery("PRAGMA journal_mode=WAL")) {
                rs.next();
                if (!"wal".equalsIgnoreCase(rs.getString(1))) {
                    throw new SQLException("WAL journal mode refused: " + rs.getString(1));
                }
            }
            st.execute("PRAGMA foreign_keys=ON");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }
}

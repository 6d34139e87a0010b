package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.schema.Migrations;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * How a database file is opened read-only [L4]: {@code SQLITE_OPEN_READONLY} through a {@code file:} URI
 * with {@code mode=ro}, no journal-mode switch or other persistent pragma, no migration; and the check
 * that the file is a Stillpoint database at exactly this build's schema version, made before any
 * pooled connection opens.
 *
 * <p>What SQLite needs from the filesystem: a WAL-mode file (every Stillpoint database) is read through
 * its {@code -wal} and {@code -shm} files. When they are missing and the directory is writable, SQLite
 * creates them (an empty WAL and a 32 KiB index) and a read-only connection leaves them behind; the
 * database file itself is not written. When they are missing and the directory is not writable, no
 * writer can be running (a WAL writer must create {@code -wal} there), so the file is opened
 * {@code immutable=1}, which needs neither. A {@code -wal} present beside a {@code -shm} that cannot be
 * created is refused: its commits could not be read. The schema check itself reads a WAL-mode file
 * without a {@code -wal} immutably, so a file refused as foreign gains no {@code -wal}/{@code -shm}.
 */
public final class ReadOnlyFile {

    private static final int HEADER_BYTES = 20;
    private static final int WAL_FORMAT = 2;

    private final Path file;
    private final String url;

    private ReadOnlyFile(Path file, String url) {
        this.file = file;
        this.url = url;
    }

    /**
     * Checks {@code file} and chooses how its connections open.
     *
     * @throws StorageException VALIDATION naming the file when it is not a Stillpoint database or its
     *     schema version is not this build's; INTERNAL when SQLite cannot open it
     */
    public static ReadOnlyFile check(Path file, SQLiteConfig settings) {
        Path absolute = file.toAbsolutePath();
        boolean wal = walFormat(absolute);
        boolean walMissing = !Files.exists(sidecar(absolute, "-wal"));
        // The probe never creates -wal/-shm: a WAL file with no -wal has all its commits in the file itself.
        String probeUrl = uri(absolute, wal && walMissing);
        int version;
        try (Connection c = open(probeUrl, settings)) {
            version = Migrations.currentVersion(c);
        } catch (SQLException e) {
            throw new StorageException(ErrorReason.INTERNAL, "cannot open SQLite database " + file + " read-only: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            Path dir = absolute.getParent();
            if (wal && !walMissing && !Files.exists(sidecar(absolute, "-shm")) && dir != null && !Files.isWritable(dir)) {
                throw new StorageException(ErrorReason.INTERNAL, "cannot read " + file + " read-only: its -wal is"
                        + " there but its -shm is not, and directory " + dir + " is not writable, so SQLite cannot"
                        + " read the commits in the -wal (" + rootMessage(e) + ")", e);
            }
            throw new StorageException(ErrorReason.VALIDATION, "cannot read the schema of " + file
                    + " (is it a SQLite database?): " + rootMessage(e), e);
        }
        int expected = Migrations.bundled().latestVersion();
        if (version == 0) {
            throw StorageException.validation("file " + file + " is not a Stillpoint database (it has no"
                    + " sp_schema_version table); a read-only opening never creates one");
        }
        if (version != expected) {
            throw StorageException.validation("database " + file + " is at schema version " + version
                    + " and this build reads version " + expected + (version < expected
                    ? "; a read-only opening never migrates: open it read-write once to migrate"
                    : "; it was written by a newer Stillpoint"));
        }
        Path dir = absolute.getParent();
        boolean immutable = wal && walMissing && !Files.exists(sidecar(absolute, "-shm"))
                && dir != null && !Files.isWritable(dir);
        return new ReadOnlyFile(file, uri(absolute, immutable));
    }

    /**
     * Reads what {@code file} holds (its Stillpoint schema version and any schema objects not
     * Stillpoint's) through the same read-only probe as {@link #check}: nothing is written to it and a
     * WAL-mode file without its {@code -wal} gains none. A file of zero bytes is an empty database.
     *
     * @throws StorageException VALIDATION naming the file when it is not a SQLite database
     */
    public static FileContents inspect(Path file, SQLiteConfig settings) {
        Path absolute = file.toAbsolutePath();
        try {
            if (Files.size(absolute) == 0) {
                return new FileContents(file, 0, List.of());
            }
        } catch (IOException e) {
            throw new StorageException(ErrorReason.INTERNAL, "cannot read SQLite database " + file + ": " + e.getMessage(), e);
        }
        boolean wal = walFormat(absolute);
        String probeUrl = uri(absolute, wal && !Files.exists(sidecar(absolute, "-wal")));
        try (Connection c = open(probeUrl, settings);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT type, name FROM sqlite_master ORDER BY name")) {
            int version = Migrations.currentVersion(c);
            List<String> foreign = new ArrayList<>();
            while (rs.next()) {
                String name = rs.getString(2);
                // SQLite's own objects are nobody's; in a Stillpoint database, sp_* objects are ours.
                if (!name.startsWith("sqlite_") && !(version > 0 && name.startsWith("sp_"))) {
                    foreign.add(rs.getString(1) + " " + name);
                }
            }
            return new FileContents(file, version, List.copyOf(foreign));
        } catch (SQLException | RuntimeException e) {
            throw new StorageException(ErrorReason.VALIDATION, "cannot read the schema of " + file
                    + " (is it a SQLite database?): " + rootMessage(e), e);
        }
    }

    /** The JDBC URL every read connection opens. */
    public String url() {
        return url;
    }

    /** A read-only connection with the non-persistent settings of {@code settings}. */
    public Connection open(SQLiteConfig settings) throws SQLException {
        return open(url, settings);
    }

    /** The file, as given. */
    public Path file() {
        return file;
    }

    private static Connection open(String url, SQLiteConfig settings) throws SQLException {
        SQLiteConfig c = new SQLiteConfig(settings.toProperties());
        c.setReadOnly(true);
        c.setOpenMode(org.sqlite.SQLiteOpenMode.OPEN_URI);
        return c.createConnection(url);
    }

    private static String uri(Path absolute, boolean immutable) {
        // Path.toUri ("file:///...") percent-encodes spaces, '?' and '#', which SQLite's URI parser decodes.
        return "jdbc:sqlite:" + absolute.toUri()
                + "?mode=ro" + (immutable ? "&immutable=1" : "");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static Path sidecar(Path db, String suffix) {
        return db.resolveSibling(db.getFileName() + suffix);
    }

    /** Whether the header's read and write versions (bytes 18, 19) say WAL; false when unreadable. */
    private static boolean walFormat(Path file) {
        byte[] header = new byte[HEADER_BYTES];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(header, 0, HEADER_BYTES) < HEADER_BYTES) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        return header[18] == WAL_FORMAT || header[19] == WAL_FORMAT;
    }
}

package dev.stillpoint.cli;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.error.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Checks on a {@code --sqlite} file made before the engine opens it (opening a SQLite engine
 * creates a missing file, and a command that reads must never do that), and the read-write opening
 * itself, refused with exit 4 naming the file.
 */
final class DatabaseFile {
    private static final byte[] HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private DatabaseFile() {
    }

    /** {@code file} exists, is a readable regular file and starts with the SQLite header; otherwise exit 4. */
    static Path requireExisting(Path file) {
        if (!Files.exists(file)) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "database file " + file + " does not exist");
        }
        if (!Files.isRegularFile(file)) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "database file " + file + " is not a regular file");
        }
        if (!Files.isReadable(file)) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "database file " + file + " is not readable");
        }
        byte[] head = new byte[HEADER.length];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot read database file " + file + ": " + e.getMessage(), e);
        }
        if (read < HEADER.length || !Arrays.equals(head, HEADER)) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "database file " + file + " is not a SQLite database"
                    + (read == 0 ? " (it is empty)" : " (no SQLite header)"));
        }
        return file;
    }

    /**
     * {@code file} may be created: either it is an existing database (checked as above), a zero-byte file
     * (what {@code touch} or {@code mktemp} leaves, an empty database to SQLite, which the engine initialises
     * as it does a new file [O4]), or it is missing and its directory exists.
     */
    static Path requireExistingOrCreatable(Path file) {
        if (Files.isRegularFile(file) && Files.isReadable(file) && sizeOf(file) == 0) {
            return file;
        }
        if (Files.exists(file)) {
            return requireExisting(file);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot create database file " + file
                    + ": directory " + parent + " does not exist");
        }
        return file;
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot read database file " + file + ": " + e.getMessage(), e);
        }
    }

    static SqliteStorage open(Path file, SqliteConfig config) {
        return open(file, config, true);
    }

    /**
     * Opens a database file read-write; with {@code mayInitialise} false (a command that writes but
     * creates no table) only a Stillpoint database is opened, never a new or empty one [O4].
     */
    static SqliteStorage open(Path file, SqliteConfig config, boolean mayInitialise) {
        try {
            return mayInitialise ? SqliteStorage.open(config) : SqliteStorage.openExisting(config);
        } catch (StorageException e) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot open database file " + file + ": " + e.getMessage(), e);
        }
    }
}

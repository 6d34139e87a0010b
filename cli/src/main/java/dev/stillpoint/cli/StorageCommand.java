package dev.stillpoint.cli;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.error.StorageException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** A command on one SQLite database file: {@code --sqlite FILE [--account ID]}. */
abstract class StorageCommand extends CliCommand {

    /** The account every command uses unless {@code --account} names another. */
    static final String DEFAULT_ACCOUNT = "000000000000";

    @Option(names = "--sqlite", required = true, paramLabel = "FILE", description = "The SQLite database file.")
    Path sqlite;

    @Option(names = "--account", paramLabel = "ID", defaultValue = DEFAULT_ACCOUNT,
            description = "Account id (default: ${DEFAULT-VALUE}).")
    String account;

    /** Whether this command may create a missing database file (only create-table does). */
    boolean createsDatabase() {
        return false;
    }

    /** Opens the engine on {@code --sqlite}, after checking the file (exit 4 when it is not a database). */
    SqliteStorage openStorage() {
        if (createsDatabase()) {
            DatabaseFile.requireExistingOrCreatable(sqlite);
        } else {
            DatabaseFile.requireExisting(sqlite);
        }
        return open(sqlite, SqliteConfig.file(sqlite));
    }

    /**
     * Opens {@code --sqlite} read-only [L4] (export, describe, list-tables): no migration, no journal-mode
     * switch, no control-plane work, nothing written; a file that is not a Stillpoint database at this
     * build's schema version ends with exit 4 naming it. Two read connections: one snapshot at a time.
     */
    SqliteStorage openReadOnly() {
        DatabaseFile.requireExisting(sqlite);
        try {
            return SqliteStorage.openReadOnly(SqliteConfig.file(sqlite).withPool(2, 1));
        } catch (StorageException e) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, CliCommand.message(e), e); // the message names the file
        }
    }

    static SqliteStorage open(Path file, SqliteConfig config) {
        try {
            return SqliteStorage.open(config);
        } catch (StorageException e) {
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot open database file " + file + ": " + e.getMessage(), e);
        }
    }
}

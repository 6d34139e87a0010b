package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import picocli.CommandLine.Command;

/**
 * {@code migrate}: opens a database read-write once, so its pending migrations run, then closes it. Read-only
 * commands never migrate [L4]; after an upgrade of Stillpoint they refuse an older database until a command
 * that writes has opened it, and this is the command that does only that.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Bring a database to this build's schema version: open it read-write once, which runs every",
            "pending migration (SQLite, PostgreSQL) or catalog step (MongoDB, Cassandra), then close it. The read-only",
            "commands (describe, export, get-item, list-tables) never migrate and refuse an older database."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:at this build's schema version", "1:storage error", "2:usage error",
            "4:database file missing, unreadable, not a SQLite database, or written by a newer Stillpoint"})
final class MigrateCommand extends StorageCommand {

    @Override
    int run() {
        try (Storage storage = openStorage()) {
            answer.put("migrated", true);
            out().printf("%s is at this build's schema version%n", shownBackend());
            out().flush();
            return ExitCodes.OK;
        }
    }
}

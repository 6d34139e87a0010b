package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import picocli.CommandLine.Command;

/** {@code list-tables}: the account's table names, one a line. */
@Command(name = "list-tables", mixinStandardHelpOptions = true,
        description = {"List the account's tables (DELETING ones included), one name a line, in name order.",
            "Read-only: opens the file with SQLITE_OPEN_READONLY and changes nothing in it."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:listed", "1:storage error", "2:usage error",
            "4:database file missing, unreadable, or not a Stillpoint database at this build's schema version"})
final class ListTablesCommand extends StorageCommand {

    @Override
    int run() {
        try (Storage storage = openReadOnly()) {
            var names = storage.tables().listTables(account);
            answer.put("account", account);
            names.forEach(answer.putArray("tables")::add);
            names.forEach(out()::println);
            out().flush();
            return ExitCodes.OK;
        }
    }
}

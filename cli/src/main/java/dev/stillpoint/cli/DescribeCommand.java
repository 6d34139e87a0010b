package dev.stillpoint.cli;

import dev.stillpoint.backup.DescriptionJson;

import dev.stillpoint.ports.in.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code describe}: a table's description as JSON. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = {"Print a table's description as JSON (DescribeTable's field names).",
            "Read-only: opens the file with SQLITE_OPEN_READONLY and changes nothing in it."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:described", "1:storage error", "2:usage error", "3:table not found",
            "4:database file missing, unreadable, or not a Stillpoint database at this build's schema version"})
final class DescribeCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @Override
    int run() {
        try (Storage storage = openReadOnly()) {
            var description = DescriptionJson.of(storage.tables().describeTable(account, table), true);
            answer.put("table", table);
            answer.set("description", description);
            out().println(DescriptionJson.text(description));
            out().flush();
            return ExitCodes.OK;
        }
    }
}

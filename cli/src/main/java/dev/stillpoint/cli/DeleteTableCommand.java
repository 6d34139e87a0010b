package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code delete-table}: deletes a table, at once or deferred while a reader holds it [D5]. */
@Command(name = "delete-table", mixinStandardHelpOptions = true,
        description = "Delete a table: gone at once when nothing holds it, otherwise DELETING until its readers finish.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:deleted or DELETING", "1:storage error", "2:usage error", "3:table not found",
            "4:database file missing, unreadable or not a SQLite database"})
final class DeleteTableCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @Override
    int run() {
        try (Storage storage = openStorage()) {
            storage.tables().deleteTable(account, table);
            String state;
            answer.put("table", table);
            try {
                TableDescription after = storage.tables().describeTable(account, table);
                state = "is " + after.status() + " (dropped once nothing holds it)";
                answer.put("status", after.status().name());
            } catch (StorageException e) {
                if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                    throw e;
                }
                state = "is deleted";
                answer.put("status", "DELETED");
            }
            out().printf("table '%s' %s%n", table, state);
            out().flush();
            return ExitCodes.OK;
        }
    }
}

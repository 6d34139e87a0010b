package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code delete-table}: deletes a table, at once or deferred while a reader holds it [D5]. */
@Command(name = "delete-table", mixinStandardHelpOptions = true,
        description = {"Delete a table: gone at once when nothing holds it, otherwise DELETING until its readers",
            "finish. A DELETING table is dropped by the control-plane passes of an opening that writes (a server",
            "embedding Stillpoint, or this command while --wait lets it run); a later command that writes drops it",
            "too."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:deleted, or DELETING when --wait is 0", "1:storage error, or still DELETING after --wait",
            "2:usage error", "3:table not found",
            "4:database file missing, unreadable or not a SQLite database"})
final class DeleteTableCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    // DeleteTable itself never waits behind a reader [D5]; waiting for the deferred drop is the caller's choice.
    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "0",
            description = "How long to wait, while readers hold it, for a DELETING table to be dropped (default: "
                    + "${DEFAULT-VALUE}: answer DELETING at once).")
    long waitSeconds;

    @Override
    int run() {
        if (waitSeconds < 0) {
            throw new CliFailure(ExitCodes.USAGE, "--wait must be 0 or more seconds, got " + waitSeconds);
        }
        try (Storage storage = openStorage()) {
            storage.tables().deleteTable(account, table);
            answer.put("table", table);
            Optional<TableDescription> after = awaitGone(storage.tables(), waitSeconds * 1000);
            if (after.isPresent()) {
                answer.put("status", after.get().status().name());
                if (waitSeconds > 0) {
                    throw new CliFailure(ExitCodes.STORAGE_ERROR, "table '" + table + "' is still "
                            + after.get().status() + " after " + waitSeconds + " s: its drop did not complete (a reader"
                            + " holds the table, or the drop failed and is retried; a failed drop is logged)");
                }
                out().printf("table '%s' is %s (dropped once nothing holds it; a drop that failed is logged and"
                        + " retried)%n", table, after.get().status());
            } else {
                answer.put("status", "DELETED");
                out().printf("table '%s' is deleted%n", table);
            }
            out().flush();
            return ExitCodes.OK;
        }
    }

    /** The table's description while it is still there after {@code waitMillis}; empty once it is gone. */
    private Optional<TableDescription> awaitGone(TableOperations tables, long waitMillis) {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        while (true) {
            Optional<TableDescription> now = describe(tables);
            if (now.isEmpty() || System.nanoTime() >= deadline) {
                return now;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException(ErrorReason.TRANSIENT, "interrupted waiting for table '" + table
                        + "' to be dropped");
            }
        }
    }

    private Optional<TableDescription> describe(TableOperations tables) {
        try {
            return Optional.of(tables.describeTable(account, table));
        } catch (StorageException e) {
            if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                throw e;
            }
            return Optional.empty();
        }
    }
}

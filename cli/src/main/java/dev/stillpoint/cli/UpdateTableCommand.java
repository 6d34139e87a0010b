package dev.stillpoint.cli;

import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code update-table}: switches a table's change log on or off [I1], as UpdateTable changes a setting. */
@Command(name = "update-table", mixinStandardHelpOptions = true,
        description = {"Switch a table's change log on or off [I1]. Switching on starts the log now: an incremental",
            "export (export --since) may start at the marker of any export taken afterwards, never before.",
            "Switching off discards the log. A log that is on cannot change its view: switch it OFF first."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:the table has the setting", "1:storage error (a view change while on, the table not ACTIVE)",
            "2:usage error", "3:table not found",
            "4:database file missing or unreadable, or the database server cannot be reached",
            "9:the backend keeps no change log (MongoDB, Cassandra)"})
final class UpdateTableCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @Option(names = "--change-log", required = true, paramLabel = "VIEW",
            description = "NEW_IMAGE, NEW_AND_OLD_IMAGES, or OFF. SQLite and PostgreSQL (both layouts); MongoDB and"
                    + " Cassandra refuse a log.")
    ChangeLog changeLog;

    @Override
    int run() {
        try (Storage storage = openStorage()) {
            TableDescription before = storage.tables().describeTable(account, table);
            TableDescription after = storage.tables().updateChangeLog(account, table, changeLog);
            boolean changed = before.changeLog() != after.changeLog();
            answer.put("table", table);
            answer.put("changeLog", after.changeLog().name());
            answer.put("changed", changed);
            out().printf("table '%s': change log %s%s%n", table, after.changeLog(),
                    changed ? " (was " + before.changeLog() + ")" : " (unchanged)");
            out().flush();
            return ExitCodes.OK;
        }
    }
}

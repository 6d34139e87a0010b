package dev.stillpoint.cli;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.Storage;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code get-item}: one item by its key, printed as DynamoDB JSON [X4, V3]. */
@Command(name = "get-item", mixinStandardHelpOptions = true,
        description = {"Read one item by its key and print it as DynamoDB JSON on one line (the item's attributes,"
                + " the text put --item-file reads back). The key is the request's Key: exactly the table's key"
                + " attributes with their declared types, or a ValidationException.",
            "Read-only: opens the file with SQLITE_OPEN_READONLY and changes nothing in it."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:found and printed",
            "1:storage error (e.g. a key with a missing, extra or mistyped attribute: ValidationException)",
            "2:usage error (also: a key file that cannot be read)", "3:table not found",
            "4:database file missing, unreadable, or not a Stillpoint database at this build's schema version",
            "15:no item has that key"})
final class GetItemCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Key (exactly one):%n")
    KeyInput key = new KeyInput();

    @Override
    int run() {
        var requestKey = key.key(in());
        try (Storage storage = openReadOnly()) {
            Optional<Item> item = storage.tables().getItem(account, table, requestKey);
            if (item.isEmpty()) {
                throw new CliFailure(ExitCodes.ITEM_NOT_FOUND, "no item of table '" + table + "' has that key");
            }
            String text = ItemJson.encode(item.get());
            answer.put("table", table);
            answer.set("item", JsonAnswers.tree(text));
            out().println(text);
            out().flush();
            return ExitCodes.OK;
        }
    }
}

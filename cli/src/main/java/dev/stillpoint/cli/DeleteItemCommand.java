package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code delete-item}: deletes one item by its key [X4, V3]. */
@Command(name = "delete-item", mixinStandardHelpOptions = true,
        description = {"Delete one item by its key, as DeleteItem does: no item under the key is not an error."
                + " The key is the request's Key: exactly the table's key attributes with their declared types,"
                + " or a ValidationException."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:deleted, or there was none",
            "1:storage error (e.g. a key with a missing, extra or mistyped attribute: ValidationException)",
            "2:usage error (also: a key file that cannot be read)", "3:table not found",
            "4:database file missing, unreadable or not a Stillpoint database"})
final class DeleteItemCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Key (exactly one):%n")
    KeyInput key = new KeyInput();

    @Override
    int run() {
        var requestKey = key.key(in());
        try (Storage storage = openStorage()) {
            storage.tables().deleteItem(account, table, requestKey);
        }
        answer.put("table", table);
        answer.set("key", JsonAnswers.tree(dev.stillpoint.itemjson.ItemJson.encode(
                dev.stillpoint.domain.item.Item.of(requestKey.attributes()))));
        out().printf("deleted the item under that key from '%s' (if there was one)%n", table);
        out().flush();
        return ExitCodes.OK;
    }
}

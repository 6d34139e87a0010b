package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code put}: writes items given as DynamoDB JSON. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Put items given in DynamoDB JSON, e.g. --item '{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}'.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every item written", "1:storage error (e.g. an invalid item; items before it are written)",
            "2:usage error", "3:table not found", "4:database file missing, unreadable or not a SQLite database"})
final class PutCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @Option(names = "--item", required = true, paramLabel = "JSON", description = "An item in DynamoDB JSON; repeatable.")
    List<String> items = new ArrayList<>();

    @Override
    int run() {
        List<Item> decoded = new ArrayList<>();
        for (String json : items) {
            decoded.add(ItemJson.decode(json));
        }
        try (Storage storage = openStorage()) {
            for (Item item : decoded) {
                storage.tables().putItem(account, table, item);
            }
        }
        out().printf("put %d item%s into '%s'%n", decoded.size(), decoded.size() == 1 ? "" : "s", table);
        out().flush();
        return ExitCodes.OK;
    }
}

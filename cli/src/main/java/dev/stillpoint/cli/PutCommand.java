package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code put}: writes items given as DynamoDB JSON, on the command line or from a file or stdin [X4]. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Put items given in DynamoDB JSON, e.g. --item '{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}',"
                + " or from a file or stdin: --item-file F holds one item (on one line or spread over lines) or JSON"
                + " lines, one item a line. A large item belongs in a file: the system limits one argument to about"
                + " 128 KB.",
            "Every item is parsed before the first is written; a refusal names the file and line."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every item written",
            "1:storage error (e.g. an invalid item or a lost connection, named by file and line with the number of"
                + " items written before it; those are written, it and the rest are not)",
            "2:usage error (also: no item given, an input file that cannot be read)", "3:table not found",
            "4:database file missing, unreadable or not a SQLite database"})
final class PutCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table.")
    String table;

    @Option(names = "--item", paramLabel = "JSON", description = "An item in DynamoDB JSON; repeatable.")
    List<String> items = new ArrayList<>();

    @Option(names = "--item-file", paramLabel = "FILE|-",
            description = "A file (or - for stdin) holding one item or JSON lines; read after the --item ones.")
    String itemFile;

    @Override
    int run() {
        if (items.isEmpty() && itemFile == null) {
            throw new CliFailure(ExitCodes.USAGE, "no item given: use --item JSON or --item-file FILE|-");
        }
        List<Item> given = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            try {
                given.add(ItemJson.decode(items.get(i)));
            } catch (StorageException e) {
                throw InputText.located("--item #" + (i + 1), e);
            }
        }
        try (ItemInput input = itemFile == null ? null : ItemInput.open(itemFile, in())) {
            if (input != null) {
                input.check();
            }
            long[] written = {0};
            try (Storage storage = openStorage()) {
                ItemInput.Sink put = (item, where) -> {
                    try {
                        storage.tables().putItem(account, table, item);
                    } catch (StorageException e) {
                        // Whatever the failure (a refused item, a lost connection), the user learns where to resume:
                        // the items before this one are written, this one and the rest are not.
                        answer.put("table", table);
                        answer.put("items", written[0]);
                        throw InputText.located(where + " (" + written[0] + " item" + (written[0] == 1 ? "" : "s")
                                + " before it written)", e);
                    }
                    written[0]++;
                };
                for (int i = 0; i < given.size(); i++) {
                    put.accept(given.get(i), "--item #" + (i + 1));
                }
                if (input != null) {
                    input.forEach(put);
                }
            }
            long total = written[0];
            answer.put("table", table);
            answer.put("items", total);
            out().printf("put %d item%s into '%s'%n", total, total == 1 ? "" : "s", table);
            out().flush();
            return ExitCodes.OK;
        }
    }
}

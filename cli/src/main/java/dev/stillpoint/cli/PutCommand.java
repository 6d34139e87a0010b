package dev.stillpoint.cli;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
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
            "1:storage error (e.g. an invalid item, named by file and line; items before it are written)",
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
        List<InputText.Located> decoded = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String at = "--item #" + (i + 1);
            try {
                decoded.add(new InputText.Located(ItemJson.decode(items.get(i)), 0));
            } catch (StorageException e) {
                throw InputText.located(at, e);
            }
            where.add(at);
        }
        if (itemFile != null) {
            InputText input = InputText.read(itemFile, in());
            for (InputText.Located item : input.items()) {
                decoded.add(item);
                where.add(input.name() + " line " + item.line());
            }
        }
        try (Storage storage = openStorage()) {
            for (int i = 0; i < decoded.size(); i++) {
                try {
                    storage.tables().putItem(account, table, decoded.get(i).item());
                } catch (StorageException e) {
                    if (e.reason() != ErrorReason.VALIDATION) {
                        throw e;
                    }
                    throw InputText.located(where.get(i) + " (" + i + " item" + (i == 1 ? "" : "s")
                            + " before it written)", e);
                }
            }
        }
        answer.put("table", table);
        answer.put("items", decoded.size());
        out().printf("put %d item%s into '%s'%n", decoded.size(), decoded.size() == 1 ? "" : "s", table);
        out().flush();
        return ExitCodes.OK;
    }
}

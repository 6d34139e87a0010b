package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * [E1, S4] GetItem hands back only an item that carries the key it asked for, on a real SQLite file: a row
 * whose stored text names another key (edited by hand, as with {@code sqlite3}) is refused as Internal,
 * naming the table, the key and the attribute at fault, where it used to be printed as the item of the key
 * asked for; the row is not lost (DeleteItem still removes it), and the other rows read as before.
 */
class GetItemKeyCheckTest {

    private static final String THIRD = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"3\"}}";

    @Test
    void e1_anItemStoredUnderAnotherKeyIsRefusedNotPrinted() throws Exception {
        Path db = ExportCheckTest.database(Cli.scratch("get-key-check"));
        ExportCheckTest.corruptThirdRow(db, "{\"pk\":{\"S\":\"zz\"},\"sk\":{\"N\":\"3\"},\"v\":{\"S\":\"moved\"}}");

        Cli.Run get = Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-json", THIRD);
        assertThat(get.code()).as(get.out() + get.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(get.out()).as("nothing printed as the item of the key asked for").isEmpty();
        assertThat(get.err()).contains("table 'things'", "'pk' = S 'a', 'sk' = N '3'", "key attribute 'pk' is S 'zz'",
                "InternalServerError");

        Cli.Run neighbour = Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-json",
                "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}");
        assertThat(neighbour.code()).as(neighbour.err()).isZero();
        assertThat(neighbour.out()).contains("\"sk\":{\"N\":\"2\"}");

        Cli.Run delete = Cli.run("delete-item", "--sqlite", db.toString(), "--table", "things", "--key-json", THIRD);
        assertThat(delete.code()).as(delete.err()).isZero();
        Cli.Run gone = Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-json", THIRD);
        assertThat(gone.code()).as("the row went with DeleteItem: " + gone.err()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);
    }
}

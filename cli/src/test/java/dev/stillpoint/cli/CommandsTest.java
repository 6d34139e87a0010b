package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** create-table, put, describe, list-tables, delete-table, and their refusals. */
class CommandsTest {

    @Test
    void createPutDescribeListAndDelete() throws Exception {
        Path db = Cli.scratch("commands").resolve("t.db");

        Cli.Run created = Cli.run("create-table", "--sqlite", db.toString(), "--table", "orders",
                "--key", "pk:S,sk:N", "--gsi", "by-cat:cat:S:rank:N");
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).contains("created table 'orders' (ACTIVE)");
        assertThat(db).exists();

        Cli.Run put = Cli.run("put", "--sqlite", db.toString(), "--table", "orders",
                "--item", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1.50\"},\"cat\":{\"S\":\"x\"},\"rank\":{\"N\":\"3\"}}",
                "--item", "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}");
        assertThat(put.code()).as(put.err()).isZero();
        assertThat(put.out()).contains("put 2 items into 'orders'");

        Cli.Run described = Cli.run("describe", "--sqlite", db.toString(), "--table", "orders");
        assertThat(described.code()).as(described.err()).isZero();
        JsonNode d = new ObjectMapper().readTree(described.out());
        assertThat(d.path("TableName").asText()).isEqualTo("orders");
        assertThat(d.path("TableStatus").asText()).isEqualTo("ACTIVE");
        assertThat(d.path("AccountId").asText()).isEqualTo(StorageCommand.DEFAULT_ACCOUNT);
        assertThat(d.path("KeySchema").toString())
                .isEqualTo("[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]");
        assertThat(d.path("AttributeDefinitions")).hasSize(4);
        assertThat(d.path("GlobalSecondaryIndexes").get(0).path("IndexName").asText()).isEqualTo("by-cat");
        assertThat(d.path("GlobalSecondaryIndexes").get(0).path("Projection").path("ProjectionType").asText()).isEqualTo("ALL");

        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "other", "--key", "id:B").code()).isZero();
        Cli.Run listed = Cli.run("list-tables", "--sqlite", db.toString());
        assertThat(listed.code()).isZero();
        assertThat(listed.out().lines()).containsExactly("orders", "other");
        assertThat(Cli.run("list-tables", "--sqlite", db.toString(), "--account", "111111111111").out()).isEmpty();

        Cli.Run deleted = Cli.run("delete-table", "--sqlite", db.toString(), "--table", "orders");
        assertThat(deleted.code()).as(deleted.err()).isZero();
        assertThat(deleted.out()).contains("table 'orders' is deleted");
        Cli.Run gone = Cli.run("describe", "--sqlite", db.toString(), "--table", "orders");
        assertThat(gone.code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        assertThat(gone.err()).startsWith("stillpoint describe: ").contains("orders").contains("ResourceNotFoundException");
    }

    @Test
    void refusalsHaveOneLineAndTheirExitCode() throws Exception {
        Path dir = Cli.scratch("refusals");
        Path db = dir.resolve("t.db");
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "tab1", "--key", "pk:S").code()).isZero();

        // Usage errors: picocli's 2, also for a malformed key notation.
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "tab2", "--key", "pk:X").code())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("create-table", "--sqlite", db.toString(), "--table", "tab2", "--key", "pk:S",
                "--gsi", "g1:pk:N").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("put", "--sqlite", db.toString(), "--table", "tab1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("no-such-command").code()).isEqualTo(ExitCodes.USAGE);

        // An existing table, an invalid item: storage errors, 1.
        Cli.Run again = Cli.run("create-table", "--sqlite", db.toString(), "--table", "tab1", "--key", "pk:S");
        assertThat(again.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(again.err()).contains("tab1").contains("ResourceInUseException");
        Cli.Run badItem = Cli.run("put", "--sqlite", db.toString(), "--table", "tab1", "--item", "{\"pk\":{\"Q\":\"a\"}}");
        assertThat(badItem.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(badItem.err().lines()).hasSize(1);
        assertThat(badItem.err()).contains("ValidationException");

        Cli.Run missingTable = Cli.run("put", "--sqlite", db.toString(), "--table", "nope", "--item", "{\"pk\":{\"S\":\"a\"}}");
        assertThat(missingTable.code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);

        // Commands that read never create a database file.
        Path absent = dir.resolve("absent.db");
        Cli.Run noFile = Cli.run("list-tables", "--sqlite", absent.toString());
        assertThat(noFile.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(noFile.err()).contains("does not exist");
        assertThat(absent).doesNotExist();

        Path text = Files.writeString(dir.resolve("notes.txt"), "not a database\n");
        Cli.Run notDb = Cli.run("describe", "--sqlite", text.toString(), "--table", "tab1");
        assertThat(notDb.code()).isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(notDb.err()).contains("is not a SQLite database");
        assertThat(Cli.run("create-table", "--sqlite", text.toString(), "--table", "tab1", "--key", "pk:S").code())
                .isEqualTo(ExitCodes.DATABASE_FILE);
        assertThat(Files.readString(text)).isEqualTo("not a database\n");
    }
}

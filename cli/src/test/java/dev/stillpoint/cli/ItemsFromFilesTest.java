package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.itemjson.ItemJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Items and keys from a file or stdin [X4]: {@code put --item-file}, {@code get-item} and
 * {@code delete-item}, driven through the real command line against a real SQLite file; keys are
 * the request's own, checked exactly [V3].
 */
class ItemsFromFilesTest {

    /**
     * Over the 128 KB that Linux allows one command-line argument (MAX_ARG_STRLEN), under DynamoDB's
     * 400 KB item limit
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-items).
     */
    private static final int BIG = 200 * 1024;

    private static Path table(String name) {
        Path db = Cli.scratch(name).resolve("t.db");
        Cli.Run created = Cli.run("create-table", "--sqlite", db.toString(), "--table", "things", "--key", "pk:S,sk:N");
        assertThat(created.code()).as(created.err()).isZero();
        return db;
    }

    private static String bigItem(String pk) {
        return "{\"pk\":{\"S\":\"" + pk + "\"},\"sk\":{\"N\":\"1\"},\"blob\":{\"S\":\"" + "x".repeat(BIG) + "\"}}";
    }

    private static Cli.Run get(Path db, String keyJson) {
        return Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-json", keyJson);
    }

    @Test
    void aBigItemGoesInThroughAFileAndThroughStdinAndComesBackAsDynamoDbJson() throws Exception {
        Path db = table("big-item");
        Path file = Files.writeString(db.resolveSibling("big.json"), bigItem("file"));
        assertThat(Files.size(file)).isGreaterThan(128 * 1024);

        Cli.Run fromFile = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", file.toString());
        assertThat(fromFile.code()).as(fromFile.err()).isZero();
        assertThat(fromFile.out()).contains("put 1 item into 'things'");
        Cli.Run fromStdin = Cli.runWithStdin(bigItem("stdin").getBytes(StandardCharsets.UTF_8),
                "put", "--sqlite", db.toString(), "--table", "things", "--item-file", "-");
        assertThat(fromStdin.code()).as(fromStdin.err()).isZero();

        Cli.Run got = get(db, "{\"pk\":{\"S\":\"file\"},\"sk\":{\"N\":\"1\"}}");
        assertThat(got.code()).as(got.err()).isZero();
        assertThat(ItemJson.decode(got.out().strip())).as("the item read back").isEqualTo(ItemJson.decode(bigItem("file")));
        // The key from stdin this time, and from a file: the same key, the same item.
        Cli.Run viaStdin = Cli.runWithStdin("{\"sk\":{\"N\":\"1.0\"},\"pk\":{\"S\":\"stdin\"}}".getBytes(StandardCharsets.UTF_8),
                "get-item", "--sqlite", db.toString(), "--table", "things", "--key-file", "-");
        assertThat(viaStdin.code()).as(viaStdin.err()).isZero();
        assertThat(ItemJson.decode(viaStdin.out().strip())).isEqualTo(ItemJson.decode(bigItem("stdin")));
        Path keyFile = Files.writeString(db.resolveSibling("key.json"), "{\n  \"pk\": {\"S\": \"file\"},\n  \"sk\": {\"N\": \"1\"}\n}\n");
        Cli.Run viaFile = Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-file", keyFile.toString());
        assertThat(viaFile.code()).as(viaFile.err()).isZero();
        assertThat(viaFile.out()).isEqualTo(got.out());
    }

    @Test
    void jsonLinesPutOneItemALineAndABadLineIsNamedBeforeAnythingIsWritten() throws Exception {
        Path db = table("json-lines");
        Path lines = Files.writeString(db.resolveSibling("items.jsonl"),
                "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}\n\n{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}\n"
                        + "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"},\"l\":{\"L\":[{\"BOOL\":true}]}}\n");
        Cli.Run put = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", lines.toString());
        assertThat(put.code()).as(put.err()).isZero();
        assertThat(put.out()).contains("put 3 items into 'things'");
        assertThat(get(db, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"}}").out().strip())
                .isEqualTo("{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"},\"l\":{\"L\":[{\"BOOL\":true}]}}");

        // Line 3 is no item: refused naming the file and the line, and line 1 was not written.
        Path bad = Files.writeString(db.resolveSibling("bad.jsonl"),
                "{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}\n{\"pk\":{\"S\":\"e\"},\"sk\":{\"N\":\"5\"}}\n{\"pk\":{\"Q\":\"f\"}}\n");
        Cli.Run refused = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", bad.toString());
        assertThat(refused.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(refused.err()).as("the refusal names the file and line")
                .startsWith("stillpoint put: " + bad + " line 3: ").contains("ValidationException");
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(get(db, "{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}").code()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);

        // Line 2 parses but PutItem refuses it (no sort key): named, and the one before it was written.
        Path noKey = Files.writeString(db.resolveSibling("nokey.jsonl"),
                "{\"pk\":{\"S\":\"g\"},\"sk\":{\"N\":\"7\"}}\n{\"pk\":{\"S\":\"h\"}}\n");
        Cli.Run refusedByPut = Cli.runWithStdin(Files.readAllBytes(noKey),
                "put", "--sqlite", db.toString(), "--table", "things", "--item-file", "-");
        assertThat(refusedByPut.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(refusedByPut.err()).startsWith("stillpoint put: stdin line 2 (1 item before it written): ")
                .contains("ValidationException");
        assertThat(get(db, "{\"pk\":{\"S\":\"g\"},\"sk\":{\"N\":\"7\"}}").code()).isZero();

        // One item spread over lines is one item; nothing at all is refused.
        Path spread = Files.writeString(db.resolveSibling("one.json"), "{\n \"pk\": {\"S\": \"i\"},\n \"sk\": {\"N\": \"9\"}\n}\n");
        assertThat(Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", spread.toString()).out())
                .contains("put 1 item into");
        Cli.Run empty = Cli.runWithStdin(" \n".getBytes(StandardCharsets.UTF_8),
                "put", "--sqlite", db.toString(), "--table", "things", "--item-file", "-");
        assertThat(empty.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(empty.err()).contains("stdin holds no item");
        assertThat(Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file",
                db.resolveSibling("absent.jsonl").toString()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("put", "--sqlite", db.toString(), "--table", "things").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void linesEndAtLfCrOrCrLfAndARefusalNamesTheLineItIsOn() throws Exception {
        Path db = table("line-ends");
        Path mixed = Files.writeString(db.resolveSibling("mixed.jsonl"), "\r\n{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}\r\n"
                + "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}\r{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"}}");
        Cli.Run put = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", mixed.toString());
        assertThat(put.code()).as(put.err()).isZero();
        assertThat(put.out()).contains("put 3 items into 'things'");
        assertThat(get(db, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"}}").code()).as("the last line, without an end").isZero();

        Path bad = Files.writeString(db.resolveSibling("bad.jsonl"), "{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}\r\n\r\n"
                + "{\"pk\":{\"S\":\"e\"},\"sk\":{\"N\":\"5\"}}\r\n{\"pk\":{\"Q\":\"f\"}}\r\n");
        Cli.Run refused = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", bad.toString());
        assertThat(refused.err()).as("CRLF counts as one line end").startsWith("stillpoint put: " + bad + " line 4: ");
        assertThat(get(db, "{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}").code()).as("checked before written")
                .isEqualTo(ExitCodes.ITEM_NOT_FOUND);

        Path spreadBad = Files.writeString(db.resolveSibling("spread.json"), "\n{\n \"pk\": {\"S\": \"g\"},\n \"sk\": {\"Q\": \"9\"}\n}\n");
        Cli.Run spread = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", spreadBad.toString());
        assertThat(spread.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(spread.err()).as("one broken item spread over lines is named by its input")
                .startsWith("stillpoint put: " + spreadBad + ": ");

        Path endless = db.resolveSibling("endless.jsonl");
        Files.writeString(endless, "{\"pk\":{\"S\":\"h\"},\"sk\":{\"N\":\"8\"}}\n{\"pk\":{\"S\":\""
                + "x".repeat(ItemInput.MAX_LINE_CHARS) + "\"}}\n");
        Cli.Run tooLong = Cli.run("put", "--sqlite", db.toString(), "--table", "things", "--item-file", endless.toString());
        assertThat(tooLong.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(tooLong.err()).contains(endless + " line 2 is over 16777216 characters");
        assertThat(get(db, "{\"pk\":{\"S\":\"h\"},\"sk\":{\"N\":\"8\"}}").code()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);
    }

    @Test
    void aKeyIsTheRequestsOwnAndAMissingExtraOrMistypedAttributeIsRefused() throws Exception {
        Path db = table("request-key");
        assertThat(Cli.run("put", "--sqlite", db.toString(), "--table", "things",
                "--item", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"kept\"}}").code()).isZero();
        String[] wrongKeys = {
            "{\"pk\":{\"S\":\"a\"}}",                                        // the sort key missing
            "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"kept\"}}", // an extra attribute
            "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}",                    // sk given as S, declared N
        };
        for (String wrong : wrongKeys) {
            for (String command : new String[] {"get-item", "delete-item"}) {
                Cli.Run refused = Cli.run(command, "--sqlite", db.toString(), "--table", "things", "--key-json", wrong);
                assertThat(refused.code()).as(command + " " + wrong).isEqualTo(ExitCodes.STORAGE_ERROR);
                // DynamoDB's wording for all three (https://repost.aws/knowledge-center/dynamodb-provided-key-element-error).
                assertThat(refused.err()).as(command + " " + wrong)
                        .contains("The provided key element does not match the schema").contains("ValidationException");
            }
        }
        // Refused, so nothing was deleted.
        Cli.Run still = get(db, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
        assertThat(still.code()).as(still.err()).isZero();
        assertThat(ItemJson.decode(still.out().strip())).isEqualTo(
                ItemJson.decode("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"kept\"}}"));

        Cli.Run deleted = Cli.runWithStdin("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}".getBytes(StandardCharsets.UTF_8),
                "delete-item", "--sqlite", db.toString(), "--table", "things", "--key-file", "-");
        assertThat(deleted.code()).as(deleted.err()).isZero();
        Cli.Run gone = get(db, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
        assertThat(gone.code()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);
        assertThat(gone.out()).isEmpty();
        assertThat(gone.err()).contains("no item of table 'things' has that key");
        // Deleting what is not there is not an error, as DeleteItem's is not.
        assertThat(Cli.run("delete-item", "--sqlite", db.toString(), "--table", "things",
                "--key-json", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}").code()).isZero();

        // Exactly one key source; a key that is no JSON names where it came from; a missing table is 3.
        assertThat(Cli.run("get-item", "--sqlite", db.toString(), "--table", "things", "--key-json", "{}",
                "--key-file", "-").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("get-item", "--sqlite", db.toString(), "--table", "things").code()).isEqualTo(ExitCodes.USAGE);
        byte[] endless = new byte[InputText.MAX_KEY_BYTES + 1];
        java.util.Arrays.fill(endless, (byte) ' ');
        Cli.Run tooLong = Cli.runWithStdin(endless, "get-item", "--sqlite", db.toString(), "--table", "things",
                "--key-file", "-");
        assertThat(tooLong.code()).as("a key text is read to 1 MB, no further").isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(tooLong.err()).contains("stdin holds over 1048576 bytes: no key is that long");
        Cli.Run notJson = get(db, "{\"pk\":");
        assertThat(notJson.code()).isEqualTo(ExitCodes.STORAGE_ERROR);
        assertThat(notJson.err()).startsWith("stillpoint get-item: --key-json: ");
        assertThat(Cli.run("get-item", "--sqlite", db.toString(), "--table", "nope",
                "--key-json", "{\"pk\":{\"S\":\"a\"}}").code()).isEqualTo(ExitCodes.TABLE_NOT_FOUND);
        Cli.Run help = Cli.run("get-item", "--help");
        assertThat(help.out()).contains("15").contains("no item has that key");
    }

}

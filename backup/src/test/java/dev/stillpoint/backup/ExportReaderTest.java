package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The checked reader [E3]: a DynamoDB export as AWS documents it reads back; every kind of damage is refused by file and line. */
class ExportReaderTest {

    private static final ExportKey KEY = ExportReader.parseKey("pk:S,sk:N");

    private static final String A1 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"tags\":{\"SS\":[\"x\",\"y\"]}}";
    private static final String A2 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"m\":{\"M\":{\"n\":{\"NULL\":true}}},\"b\":{\"B\":\"AAEC\"}}";
    private static final String C1 = "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"-1.5E3\"},\"l\":{\"L\":[{\"BOOL\":false},{\"NS\":[\"1\",\"2\"]}]}}";

    static Path scratch(String name) {
        String build = System.getenv().getOrDefault("STILLPOINT_BUILD_DIR", "target");
        try {
            return Files.createDirectories(Path.of(build, "backup-tests", name + "-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Item> loadAll(CheckedExport export) {
        List<Item> items = new ArrayList<>();
        export.load(2, items::addAll);
        return items;
    }

    private static List<Item> items(String... texts) {
        return Arrays.stream(texts).map(ItemJson::decode).toList();
    }

    @Test
    void aDynamoDbExportOfSeveralGzippedFilesOneEmptyReadsBack() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb"));
        d.dataFile("first.json.gz", A1, A2);
        d.dataFile("empty.json.gz");
        d.dataFileOfBytes("zero.json.gz", new byte[0], 0); // an empty partition's file may hold no bytes at all
        d.dataFile("last.json.gz", C1);
        d.manifests();

        CheckedExport export = ExportReader.check(d.root, "Restored", Optional.of(KEY));

        assertThat(export.format()).isEqualTo(ExportFormat.DYNAMODB);
        assertThat(export.itemCount()).isEqualTo(3);
        assertThat(export.sourceTableArn()).contains("arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog");
        assertThat(loadAll(export)).containsExactlyElementsOf(items(A1, A2, C1));
        assertThat(export.definition("000000000000", "restored").keySchema()).isEqualTo(KEY.schema());
        // The export directory itself names the same export.
        assertThat(loadAll(ExportReader.check(d.exportDir, "Restored", Optional.of(KEY)))).hasSize(3);
    }

    // S7 [E3]: a batch ends at its item count or once its items reach CheckedExport.BATCH_BYTES, so a restore of
    // the largest items holds a few MiB of them, not 500 (200 MB). Found from outside: `restore` of 200 items of
    // 395 KB ran out of a 64 MiB heap in its first batch.
    @Test
    void aBatchOfLargeItemsEndsAtItsByteBudget() {
        String pad = "x".repeat(300_000);
        String[] lines = new String[40];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = "{\"pk\":{\"S\":\"k" + i + "\"},\"sk\":{\"N\":\"" + i + "\"},\"pad\":{\"S\":\"" + pad + "\"}}";
        }
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("large"));
        d.dataFile("large.json.gz", lines);
        d.manifests();
        List<List<Item>> batches = new ArrayList<>();

        ExportReader.check(d.root, "Restored", Optional.of(KEY)).load(500, batches::add);

        long itemBytes = ItemJson.decode(lines[0]).sizeInBytes();
        int most = (int) (CheckedExport.BATCH_BYTES / itemBytes) + 1;
        List<Integer> sizes = batches.stream().map(List::size).toList();
        assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).as("every item, once").isEqualTo(lines.length);
        assertThat(sizes).as("the items of each batch, each item %d bytes, the budget %d", itemBytes,
                CheckedExport.BATCH_BYTES).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(most));
        assertThat(sizes.get(0)).as("a batch fills up to its budget").isEqualTo(most);
    }

    @Test
    void aDynamoDbExportNeedsTheKeyFromTheCaller() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-nokey"));
        d.dataFile("a.json.gz", A1);
        d.manifests();
        refused(() -> ExportReader.check(d.root, "Restored", Optional.empty()), Problem.FORMAT, "give the key");
    }

    @Test
    void aWrongChecksumIsRefusedNamingTheFile() throws IOException {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-md5"));
        d.dataFile("a.json.gz", A1);
        Path b = d.dataFile("b.json.gz", A2);
        d.manifests();
        Files.write(b, DynamoDbExportDir.gzip(("{\"Item\":" + C1 + "}\n").getBytes(StandardCharsets.UTF_8)));

        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "b.json.gz: MD5");
    }

    @Test
    void aCountMismatchIsRefusedPerFileAndInAll() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-count"));
        d.dataFileOfBytes("a.json.gz", DynamoDbExportDir.gzip(("{\"Item\":" + A1 + "}\n{\"Item\":" + A2 + "}\n")
                .getBytes(StandardCharsets.UTF_8)), 3);
        d.manifests();
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "a.json.gz holds 2 items");

        DynamoDbExportDir e = new DynamoDbExportDir(scratch("ddb-total"));
        e.dataFile("a.json.gz", A1, A2);
        e.manifests(5);
        refused(() -> ExportReader.check(e.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "the data files hold 2 items");
    }

    @Test
    void aTruncatedGzipIsRefused() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-truncated"));
        byte[] whole = DynamoDbExportDir.gzip(("{\"Item\":" + A1 + "}\n{\"Item\":" + A2 + "}\n").getBytes(StandardCharsets.UTF_8));
        d.dataFileOfBytes("cut.json.gz", Arrays.copyOf(whole, whole.length - 12), 2); // its MD5 is of the cut bytes
        d.manifests();
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "cut.json.gz: the gzip stream is damaged or truncated");
    }

    @Test
    void aLineThatIsNotAnItemIsRefusedByFileAndLine() {
        for (String bad : List.of("{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},\"x\":{\"Q\":\"1\"}}}",
                "{\"Item\":5}", "{\"Other\":" + A1 + "}", "{\"Item\":" + A1 + ",\"More\":1}", "not json", "{\"Item\":{\"pk\":")) {
            DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-line"));
            d.dataFile("a.json.gz", C1);
            d.dataFileOfBytes("b.json.gz", DynamoDbExportDir.gzip(("{\"Item\":" + A1 + "}\n" + bad + "\n")
                    .getBytes(StandardCharsets.UTF_8)), 2);
            d.manifests();
            BackupFailure f = refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.ITEM, "b.json.gz line 2");
            assertThat(f.line()).as(bad).isEqualTo(2);
            assertThat(f.file()).get().asString().endsWith("b.json.gz");
        }
    }

    @Test
    void aKeyOfTheWrongTypeOrMissingIsRefused() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-key"));
        d.dataFile("a.json.gz", A1, "{\"pk\":{\"N\":\"7\"},\"sk\":{\"N\":\"1\"}}");
        d.manifests();
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.ITEM,
                "a.json.gz line 2: not a sound DynamoDB JSON item: ");
        BackupFailure f = catchFailure(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)));
        assertThat(f.getMessage()).contains("key attribute 'pk' is N but the table defines it as S");
        // The place once (issue 29): not "line 2: item 2 (line 2 of ...)".
        assertThat(f.getMessage()).as("the location is not repeated").doesNotContain("item 2 (").doesNotContain("line 2 of");

        DynamoDbExportDir e = new DynamoDbExportDir(scratch("ddb-nosort"));
        e.dataFile("a.json.gz", "{\"pk\":{\"S\":\"a\"}}");
        e.manifests();
        assertThat(catchFailure(() -> ExportReader.check(e.root, "Restored", Optional.of(KEY))).getMessage())
                .contains("no sort key attribute 'sk'");
    }

    @Test
    void anUnknownVersionOrFormatIsRefused() throws IOException {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-version"));
        d.dataFile("a.json.gz", A1);
        d.manifests();
        Path summary = d.exportDir.resolve("manifest-summary.json");
        Files.writeString(summary, Files.readString(summary).replace("DYNAMODB_JSON", "ION"));
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT, "outputFormat 'ION'");
        Files.writeString(summary, Files.readString(summary).replace("ION", "DYNAMODB_JSON").replace("2020-06-30", "2099-01-01"));
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT, "version '2099-01-01'");
        refused(() -> ExportReader.check(scratch("empty"), "Restored", Optional.of(KEY)), Problem.FORMAT, "no export in");
    }

    @Test
    void plainDataFilesReadToo() {
        DynamoDbExportDir d = new DynamoDbExportDir(scratch("ddb-plain"));
        d.dataFileOfBytes("a.json", ("{\"Item\":" + A1 + "}\n{\"Item\":" + C1 + "}\n").getBytes(StandardCharsets.UTF_8), 2);
        d.manifests();
        assertThat(loadAll(ExportReader.check(d.root, "Restored", Optional.of(KEY)))).containsExactlyElementsOf(items(A1, C1));
    }

    // [V5] finding 10: bytes that are not UTF-8 are the file's content (12) when the file is as its manifest
    // says, and its integrity (11) when the MD5 no longer matches: the text stops decoding there, the rest of
    // the bytes are still digested, and the unknown line count is not compared.
    @Test
    void bytesThatAreNotUtf8AreContentInAnIntactFileAndIntegrityInADamagedOne() throws IOException {
        byte[] good = ("{\"Item\":" + A1 + "}\n{\"Item\":" + C1 + "}\n").getBytes(StandardCharsets.UTF_8);
        byte[] bad = good.clone();
        int at = new String(good, StandardCharsets.UTF_8).indexOf("\"x\"") + 1;
        bad[at] = (byte) 0xFF;
        DynamoDbExportDir intact = new DynamoDbExportDir(scratch("ddb-notutf8"));
        intact.dataFileOfBytes("a.json", bad, 2);
        intact.manifests();
        refused(() -> ExportReader.check(intact.root, "Restored", Optional.of(KEY)), Problem.ITEM, "line 1 is not UTF-8 text");

        DynamoDbExportDir damaged = new DynamoDbExportDir(scratch("ddb-notutf8-damaged"));
        Path file = damaged.dataFileOfBytes("a.json", good, 2);
        damaged.manifests();
        Files.write(file, bad);
        refused(() -> ExportReader.check(damaged.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "MD5");
    }

    private static BackupFailure refused(ThrowingCallable call, Problem problem, String text) {
        BackupFailure f = catchFailure(call);
        assertThat(f.problem()).as(f.getMessage()).isEqualTo(problem);
        assertThat(f.getMessage()).contains(text);
        return f;
    }

    private static BackupFailure catchFailure(ThrowingCallable call) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(t).isInstanceOf(BackupFailure.class);
        return (BackupFailure) t;
    }

}

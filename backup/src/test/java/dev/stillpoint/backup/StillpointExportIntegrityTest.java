package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Our layout's integrity end to end [E1, E3]: what an export writes, restore's check reads back whole,
 * an item larger than the export's write buffer included; an items file changed after the export, in
 * its bytes or in its line count, is refused as an integrity failure before anything is created; and an
 * item that goes to the file through the text path (a lone surrogate, a raw line break) is checked as
 * every other item is.
 */
class StillpointExportIntegrityTest {

    private static final String ACCOUNT = "000000000000";

    private static SqliteStorage open(Path dir) {
        return SqliteStorage.open(SqliteConfig.file(dir.resolve("t.db")).withControlPlaneDelay(Duration.ZERO));
    }

    /** A composite-key table {@code things} holding {@code items}, ACTIVE. */
    private static void table(SqliteStorage storage, List<Item> items) {
        storage.tables().createTable(new CreateTableRequest(ACCOUNT, "things", KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
                List.of(), List.of(), Optional.empty()));
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, "things", Duration.ofSeconds(30));
        for (Item item : items) {
            storage.tables().putItem(ACCOUNT, "things", item);
        }
    }

    private static Item item(int sk, String v) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("pk", AttributeValue.s("a"));
        values.put("sk", AttributeValue.n(Integer.toString(sk)));
        values.put("v", AttributeValue.s(v));
        return Item.of(values);
    }

    private static ExportResult export(SnapshotEngine engine, Path out) {
        return TableExport.export(engine, ACCOUNT, "things", TableExport.prepareOutput(out),
                ExportOptions.of(ExportFormat.STILLPOINT), ExportListener.NONE, new ExportTemps());
    }

    private static List<Item> loadAll(CheckedExport export) {
        List<Item> items = new ArrayList<>();
        export.load(2, items::addAll);
        return items;
    }

    private static BackupFailure refusal(Runnable call) {
        Throwable t = catchThrowable(call::run);
        assertThat(t).as("refused with a BackupFailure").isInstanceOf(BackupFailure.class);
        return (BackupFailure) t;
    }

    // An item of about 200 KB, under DynamoDB's 400 KB item limit
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html, "Items"), is one
    // line longer than the export's 64 KiB write buffer: the manifest's sha256 must cover it as it covers
    // every other line, or restore refuses every export holding such an item.
    @Test
    void e3_anExportHoldingAnItemLargerThanTheWriteBufferIsCheckedAndRestoredWhole() {
        Path dir = ExportReaderTest.scratch("integrity-large");
        List<Item> items = List.of(item(1, "small"), item(2, "x".repeat(200_000)), item(3, "after"));
        try (SqliteStorage storage = open(dir)) {
            table(storage, items);
            ExportResult result = export(storage.snapshots(), dir.resolve("out"));
            assertThat(result.items()).isEqualTo(3);

            CheckedExport checked = ExportReader.check(dir.resolve("out"), "Restored", Optional.empty());

            assertThat(loadAll(checked)).as("[E3] the export with a 200 KB item passes restore's check and reads back whole")
                    .containsExactlyElementsOf(items);
            TableRestore.Result restored = TableRestore.restore(storage, dir.resolve("out"), Optional.empty(), ACCOUNT,
                    "things2", 2, TableRestore.Listener.NONE, new TableRestore.Abort());
            assertThat(restored.items()).isEqualTo(3);
            assertThat(storage.tables().getItem(ACCOUNT, "things2", RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("2"))))
                    .as("[E4] the 200 KB item restored equal").contains(items.get(1));
        }
    }

    // An items file changed after the export, with the same number of lines and bytes (one letter of a
    // value changed), is refused by its sha256 [E3], as an integrity failure, and nothing is created.
    @Test
    void e3_anItemsFileChangedInPlaceWithItsCountAndSizeKeptIsRefusedByItsSha256() throws Exception {
        Path dir = ExportReaderTest.scratch("integrity-sha");
        try (SqliteStorage storage = open(dir)) {
            table(storage, List.of(item(1, "first"), item(2, "second"), item(3, "third")));
            ExportResult result = export(storage.snapshots(), dir.resolve("out"));
            Path data = result.dataFile();
            byte[] before = Files.readAllBytes(data);
            byte[] after = new String(before, StandardCharsets.UTF_8).replace("second", "secund")
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(after).hasSameSizeAs(before).isNotEqualTo(before);
            Files.write(data, after);

            BackupFailure f = refusal(() -> TableRestore.restore(storage, dir.resolve("out"), Optional.empty(), ACCOUNT,
                    "things2", 2, TableRestore.Listener.NONE, new TableRestore.Abort()));

            assertThat(f.problem()).as("[E3] a changed items file is an integrity failure: %s", f.getMessage())
                    .isEqualTo(BackupFailure.Problem.INTEGRITY);
            assertThat(f.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(f.getMessage()).as("[E3] the refusal names the sha256").contains("sha256").contains(data.toString());
            assertThat(storage.tables().listTables(ACCOUNT)).as("[E3] nothing created").containsExactly("things");
        }
    }

    // An items file with one line more than the manifest's itemCount, whose sha256 the manifest was made to
    // match, is refused by its count [E3]: the count is checked on its own, not only through the digest.
    @Test
    void e3_anItemsFileWithMoreLinesThanTheManifestsCountIsRefusedEvenWhenItsSha256Matches() throws Exception {
        Path dir = ExportReaderTest.scratch("integrity-count");
        try (SqliteStorage storage = open(dir)) {
            table(storage, List.of(item(1, "first"), item(2, "second")));
            ExportResult result = export(storage.snapshots(), dir.resolve("out"));
            Path data = result.dataFile();
            String extra = ItemJson.encode(item(3, "third")) + "\n";
            Files.write(data, extra.getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
            ObjectNode manifest = (ObjectNode) DescriptionJson.MAPPER.readTree(result.manifestFile().toFile());
            manifest.put("sha256", HexFormat.of().formatHex(TableExport.sha256().digest(Files.readAllBytes(data))));
            manifest.put("bytes", Files.size(data));
            Files.writeString(result.manifestFile(), DescriptionJson.MAPPER.writeValueAsString(manifest));

            BackupFailure f = refusal(() -> ExportReader.check(dir.resolve("out"), "Restored", Optional.empty()));

            assertThat(f.problem()).as("[E3] a line count other than the manifest's is an integrity failure: %s",
                    f.getMessage()).isEqualTo(BackupFailure.Problem.INTEGRITY);
            assertThat(f.getMessage()).as("[E3] the refusal names both counts").contains("holds 3 items").contains("says 2");
        }
    }

    /** A stored item the snapshot gives as text only (as a backend without stored bytes does). */
    private record Text(String json) implements StoredItem {
        @Override
        public Item item() {
            return ItemJson.decode(json);
        }
    }

    /** The real engine's snapshot (its description and info), with {@code items} in place of the table's. */
    private static SnapshotEngine yielding(SnapshotEngine real, List<StoredItem> items) {
        return (account, table, keys) -> {
            TableSnapshot t = real.openTableSnapshot(account, table, keys);
            Iterator<StoredItem> it = items.iterator();
            ItemStream stream = new ItemStream() {
                private boolean closed;

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public StoredItem next() {
                    return it.next();
                }

                @Override
                public void close() {
                    closed = true;
                    t.close();
                }

                @Override
                public boolean isReleased() {
                    return closed;
                }
            };
            return new TableSnapshot(t.description(), t.info(), t.keyOrdered(), stream);
        };
    }

    // [E1] every item is checked before it is written, whichever path writes it: text holding a lone
    // surrogate or a raw line break goes through the text path (escaped, or refused as a line), and an
    // item there that is not sound DynamoDB JSON (an unknown type tag) still ends the export as a corrupt
    // item naming it, with no manifest written.
    @Test
    void e1_anItemOnTheTextPathIsCheckedAsEveryOtherItem() {
        Path dir = ExportReaderTest.scratch("integrity-textpath");
        try (SqliteStorage storage = open(dir)) {
            table(storage, List.of());
            String good = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}";
            for (String bad : List.of("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"x\":{\"Q\":\"\uD800\"}}",
                    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\n\"x\":{\"Q\":\"1\"}}")) {
                String kind = bad.indexOf('\n') >= 0 ? "a raw line break" : "a lone surrogate";
                Path out = dir.resolve("out-" + kind.replace(' ', '-'));
                SnapshotEngine engine = yielding(storage.snapshots(), List.of(new Text(good), new Text(bad)));

                Throwable t = catchThrowable(() -> export(engine, out));

                assertThat(t).as("[E1] an unsound item holding %s (the text path) ends the export as a corrupt item",
                        kind).isInstanceOf(BackupFailure.class);
                BackupFailure f = (BackupFailure) t;
                assertThat(f.problem()).as("[E1] %s: %s", kind, f.getMessage()).isEqualTo(BackupFailure.Problem.CORRUPT_ITEM);
                assertThat(f.getMessage()).as("[E1] the refusal names the item by position").contains("item 2");
                assertThat(out.resolve(TableExport.MANIFEST_FILE)).as("[E1] no manifest written").doesNotExist();
            }
        }
    }

    // [E1] Batches are checked on several threads at once and written in order: an unsound item deep in a
    // later batch is the one named, by its position and by the line it would have had (in DynamoDB's layout,
    // its line in the data file being written then), after every item before it is written; no manifest.
    @Test
    void e1_anUnsoundItemSeveralBatchesInIsNamedByItsPlaceInEitherLayout() {
        Path dir = ExportReaderTest.scratch("integrity-deep");
        int bad = 3 * HandOff.BATCH_ITEMS + 17;
        List<StoredItem> items = new ArrayList<>();
        for (int i = 1; i <= 6 * HandOff.BATCH_ITEMS; i++) {
            items.add(new Text("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"" + i + "\"}"
                    + (i == bad || i == bad + 2 * HandOff.BATCH_ITEMS ? ",\"x\":{\"N\":\"1e999\"}" : "") + "}"));
        }
        try (SqliteStorage storage = open(dir)) {
            table(storage, List.of());
            SnapshotEngine engine = yielding(storage.snapshots(), items);
            for (ExportFormat format : ExportFormat.values()) {
                Path out = dir.resolve("out-" + format);
                BackupFailure f = refusal(() -> TableExport.export(engine, ACCOUNT, "things", TableExport.prepareOutput(out),
                        new ExportOptions(format, true, 100), ExportListener.NONE, new ExportTemps()));

                assertThat(f.problem()).as("%s: %s", format, f.getMessage()).isEqualTo(BackupFailure.Problem.CORRUPT_ITEM);
                String line = format == ExportFormat.STILLPOINT ? "line " + bad + " of items.jsonl"
                        : "line " + ((bad - 1) % 100 + 1) + " of data/";
                assertThat(f.getMessage()).as(format.toString()).startsWith("item " + bad + " (" + line)
                        .contains("PutItem would refuse it");
                assertThat(out.resolve(TableExport.MANIFEST_FILE)).as("[E1] no manifest written").doesNotExist();
            }
        }
    }
}

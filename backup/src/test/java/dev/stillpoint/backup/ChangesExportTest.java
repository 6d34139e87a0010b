package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's incremental export on a real SQLite file [I2, I4]: the full export at A plus the lines of
 * {@code export --since A} is the full export at B, item for item; the manifest names both markers and
 * the data file's digest; a marker that starts no window of the table's log is refused by name and
 * leaves no file behind.
 */
class ChangesExportTest {

    private static final String ACCOUNT = "000000000000";

    @TempDir
    Path dir;

    private SqliteStorage open() {
        SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(dir.resolve("t.db")).withControlPlaneDelay(Duration.ZERO));
        storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "things").partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).changeLog(ChangeLog.NEW_AND_OLD_IMAGES).build());
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, "things", Duration.ofSeconds(30));
        return storage;
    }

    private static Item item(int sk, String v) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("pk", AttributeValue.s("a"));
        values.put("sk", AttributeValue.n(Integer.toString(sk)));
        values.put("v", AttributeValue.s(v));
        return Item.of(values);
    }

    private static RequestKey key(int sk) {
        return RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n(Integer.toString(sk)));
    }

    // [I2] full(A) + changes(A, B) == full(B) through the files: a put, an overwrite (twice), a delete of an
    // item present at A, a put then delete of a key absent at A, and a delete then put again.
    @Test
    void i2_theFullExportAtAPlusTheChangesIsTheFullExportAtB() throws Exception {
        try (SqliteStorage storage = open()) {
            for (int i = 0; i < 5; i++) {
                storage.tables().putItem(ACCOUNT, "things", item(i, "a" + i));
            }
            ExportResult a = TableExport.to(dir.resolve("full-a")).run(storage, ACCOUNT, "things");
            storage.tables().putItem(ACCOUNT, "things", item(10, "new"));
            storage.tables().putItem(ACCOUNT, "things", item(1, "over"));
            storage.tables().putItem(ACCOUNT, "things", item(1, "over again"));
            storage.tables().deleteItem(ACCOUNT, "things", key(2));
            storage.tables().putItem(ACCOUNT, "things", item(11, "brief"));
            storage.tables().deleteItem(ACCOUNT, "things", key(11));
            storage.tables().deleteItem(ACCOUNT, "things", key(3));
            storage.tables().putItem(ACCOUNT, "things", item(3, "back"));

            ChangesExport.Result changes = TableExport.to(dir.resolve("changes")).runSince(storage, ACCOUNT, "things",
                    a.info().marker());
            ExportResult b = TableExport.to(dir.resolve("full-b")).run(storage, ACCOUNT, "things");

            Map<String, Item> replayed = items(a.dataFile());
            for (String line : Files.readAllLines(changes.dataFile(), StandardCharsets.UTF_8)) {
                JsonNode n = ManifestJson.JSON.readTree(line);
                Item keys = ItemJson.decode(n.get("Keys").toString());
                if (n.has("NewImage")) {
                    replayed.put(keyOf(keys), ItemJson.decode(n.get("NewImage").toString()));
                } else {
                    replayed.remove(keyOf(keys));
                }
            }
            assertThat(replayed).as("full(A) + changes(A, B)").isEqualTo(items(b.dataFile()));
            assertThat(changes.puts()).as("10, 1, 3 put").isEqualTo(3);
            assertThat(changes.tombstones()).as("2 deleted; 11 came and went, so nothing").isEqualTo(1);

            JsonNode manifest = ManifestJson.readJson(changes.manifestFile());
            assertThat(manifest.get("format").asText()).isEqualTo(ChangesExport.FORMAT);
            assertThat(manifest.get("since").get("marker").asText()).isEqualTo(a.info().marker());
            assertThat(manifest.get("until").get("marker").asText()).as("ends where the next snapshot is")
                    .isEqualTo(b.info().marker());
            assertThat(manifest.get("sha256").asText()).isEqualTo(HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(changes.dataFile()))));
            assertThat(manifest.get("changeCount").asLong()).isEqualTo(4);
        }
    }

    // [I4] a marker older than the log, or of no known form, is refused naming it; nothing is left in the
    // output directory (no manifest, no data file, no temp).
    @Test
    void i4_aStaleMarkerIsRefusedByNameAndWritesNothing() throws Exception {
        try (SqliteStorage storage = open()) {
            storage.tables().putItem(ACCOUNT, "things", item(1, "x"));
            String marker = TableExport.to(dir.resolve("full")).run(storage, ACCOUNT, "things").info().marker();
            String stale = marker.substring(0, marker.indexOf('@')) + "@0";
            Path out = dir.resolve("stale");
            Throwable refused = catchThrowable(() -> TableExport.to(out).runSince(storage, ACCOUNT, "things", stale));
            assertThat(refused).isInstanceOf(StorageException.class).hasMessageContaining("'" + stale + "'")
                    .hasMessageContaining("older than the change log");
            assertThat(((StorageException) refused).reason()).isEqualTo(ErrorReason.VALIDATION);
            try (var files = Files.list(out)) {
                assertThat(files.toList()).as("files left in " + out).isEmpty();
            }
        }
    }

    private static Map<String, Item> items(Path jsonl) throws Exception {
        Map<String, Item> out = new HashMap<>();
        for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
            Item item = ItemJson.decode(line);
            out.put(keyOf(item), item);
        }
        return out;
    }

    private static String keyOf(Item item) {
        return ItemJson.encode(Item.of(Map.of("pk", item.get("pk"), "sk", item.get("sk"))));
    }
}

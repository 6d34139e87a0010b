package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.TableOperations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * [V2, E3] An attribute name may be 65,535 bytes of UTF-8
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html), and an
 * item PutItem takes comes back from an export in either layout. Found from outside (a put-against-restore
 * differential of hostile items): PutItem took a name of 60,000 bytes, export wrote it with exit 0, and restore of
 * either layout refused the line as "not well-formed JSON: Name length (60000) exceeds the maximum allowed (50000)"
 * (Jackson's default). A name one byte over is still refused, by PutItem's own rule.
 */
class LongAttributeNamesTest {

    private static final String ACCOUNT = "000000000000";
    private static final ExportKey KEY = ExportReader.parseKey("pk:S");

    private static Map<String, String> longestNames() {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("ascii", "n".repeat(65_535));
        names.put("two-byte", "\u00e9".repeat(32_767) + "n");
        // Each byte a control character, written as a six-character escape: 393,210 characters of JSON.
        names.put("escaped", "\u0001".repeat(65_535));
        return names;
    }

    @Test
    void v2_theLongestNamesDynamoDbTakesComeBackFromEitherLayout() throws Exception {
        Path dir = ExportReaderTest.scratch("long-names");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(dir.resolve("t.db")).withControlPlaneDelay(Duration.ZERO))) {
            TableOperations tables = storage.tables();
            tables.createTable(new CreateTableRequest(ACCOUNT, "names", KEY.schema(),
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            TableWaiter.awaitActive(tables, ACCOUNT, "names", Duration.ofSeconds(30));
            Map<String, Item> put = new LinkedHashMap<>();
            for (Map.Entry<String, String> n : longestNames().entrySet()) {
                assertThat(n.getValue().getBytes(StandardCharsets.UTF_8)).as(n.getKey()).hasSize(65_535);
                Item item = ItemJson.decode("{\"pk\":{\"S\":\"" + n.getKey() + "\"}}").with(n.getValue(), new AttributeValue.S("v"));
                tables.putItem(ACCOUNT, "names", item);
                put.put(n.getKey(), item);
            }
            for (ExportFormat format : ExportFormat.values()) {
                Path out = Files.createDirectories(dir.resolve("out-" + format));
                TableExport.export(storage.snapshots(), ACCOUNT, "names", out, ExportOptions.of(format),
                        ExportListener.NONE, new ExportTemps());
                String copy = "copy-" + format.name().toLowerCase();
                TableRestore.restore(storage, out, Optional.of(KEY), ACCOUNT, copy, 100, TableRestore.Listener.NONE,
                        new TableRestore.Abort());
                for (Map.Entry<String, Item> p : put.entrySet()) {
                    assertThat(tables.getItem(ACCOUNT, copy, RequestKey.of("pk", new AttributeValue.S(p.getKey()))))
                            .as("%s, name %s", format, p.getKey()).contains(p.getValue());
                }
            }
        }
    }

    @Test
    void v2_aNameOneByteOverIsRefusedByPutItemsRuleNamingTheLine() throws Exception {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("long-names-over"));
        Path file = d.dataFile("only.json.gz", "{\"pk\":{\"S\":\"a\"}}",
                "{\"pk\":{\"S\":\"b\"},\"" + "n".repeat(65_536) + "\":{\"S\":\"v\"}}");
        d.manifests();
        assertThatThrownBy(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> {
                    assertThat(f.problem()).isEqualTo(BackupFailure.Problem.ITEM);
                    assertThat(f.file()).contains(file);
                    assertThat(f.line()).isEqualTo(2);
                    assertThat(f.getMessage()).contains("PutItem would refuse the item", "is 65536 bytes of UTF-8; at most 65535 are allowed")
                            .doesNotContain("StreamReadConstraints");
                });
    }
}

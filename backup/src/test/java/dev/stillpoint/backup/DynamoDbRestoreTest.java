package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A DynamoDB export directory as AWS documents it (several gzipped data files, one of them empty, one of
 * no bytes at all) restores into a real backend [E3, E4], and a damaged one creates nothing.
 */
class DynamoDbRestoreTest {

    private static final String ACCOUNT = "000000000000";
    private static final ExportKey KEY = ExportReader.parseKey("pk:S,sk:N");
    private static final List<String> ITEMS = List.of(
            "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"tags\":{\"SS\":[\"x\",\"y\"]}}",
            "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"m\":{\"M\":{\"n\":{\"NULL\":true}}},\"b\":{\"B\":\"AAEC\"}}",
            "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"-1500\"},\"l\":{\"L\":[{\"BOOL\":false},{\"NS\":[\"1\",\"2\"]}]}}");

    private static SqliteStorage open(String name) {
        return SqliteStorage.open(SqliteConfig.file(ExportReaderTest.scratch(name).resolve("target.db"))
                .withControlPlaneDelay(Duration.ZERO));
    }

    @Test
    void e4_anAwsExportOfSeveralGzippedFilesOneEmptyRestoresWithItsSourceArn() {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("ddb-restore"));
        d.dataFile("first.json.gz", ITEMS.get(0), ITEMS.get(1));
        d.dataFile("empty.json.gz");
        d.dataFileOfBytes("zero.json.gz", new byte[0], 0);
        d.dataFile("last.json.gz", ITEMS.get(2));
        d.manifests();

        try (SqliteStorage storage = open("ddb-restore-target")) {
            TableRestore.Result result = TableRestore.restore(storage, d.root, Optional.of(KEY), ACCOUNT, "products", 2,
                    TableRestore.Listener.NONE, new TableRestore.Abort());

            assertThat(result.format()).isEqualTo(ExportFormat.DYNAMODB);
            assertThat(result.items()).isEqualTo(3);
            assertThat(result.table().status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(result.table().keySchema()).isEqualTo(KEY.schema());
            assertThat(result.table().restoreSummary()).hasValueSatisfying(s -> {
                assertThat(s.restoreInProgress()).isFalse();
                assertThat(s.sourceTableArn()).contains("arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog");
                // RestoreDateTime is "Point in time or source backup time" (DynamoDB API reference, RestoreSummary:
                // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html): the
                // manifest's exportTime, not when this restore ran (years later).
                assertThat(s.restoreDateTime()).as("RestoreDateTime: the export's exportTime")
                        .isEqualTo(java.time.Instant.parse("2020-11-04T07:28:34.028Z"));
            });
            for (String text : ITEMS) {
                Item expected = ItemJson.decode(text);
                assertThat(storage.tables().getItem(ACCOUNT, "products", RequestKey.of("pk", expected.get("pk"), "sk", expected.get("sk"))))
                        .contains(expected);
            }
        }
    }

    // The exportTime becomes RestoreDateTime; one that is not an instant is refused by the check, naming it.
    @Test
    void e3_anExportTimeThatIsNoInstantIsRefusedNamingItAndCreatesNothing() throws Exception {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("ddb-restore-bad-time"));
        d.dataFile("first.json.gz", ITEMS.get(0));
        d.manifests();
        java.nio.file.Path summary = d.exportDir.resolve("manifest-summary.json");
        java.nio.file.Files.writeString(summary, java.nio.file.Files.readString(summary)
                .replace("\"exportTime\":\"2020-11-04T07:28:34.028Z\"", "\"exportTime\":\"yesterday\""));
        try (SqliteStorage storage = open("ddb-restore-bad-time-target")) {
            assertThatThrownBy(() -> TableRestore.restore(storage, d.root, Optional.of(KEY), ACCOUNT, "products", 2,
                    TableRestore.Listener.NONE, new TableRestore.Abort()))
                    .isInstanceOf(BackupFailure.class)
                    .hasMessageContaining("manifest-summary.json").hasMessageContaining("exportTime")
                    .hasMessageContaining("'yesterday'");
            assertThat(storage.tables().listTables(ACCOUNT)).as("nothing created").isEmpty();
        }
    }

    @Test
    void e3_aDamagedAwsExportCreatesNothing() {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("ddb-restore-damaged"));
        d.dataFile("first.json.gz", ITEMS.get(0));
        d.dataFileOfBytes("second.json.gz", DynamoDbExportDir.gzip(("{\"Item\":" + ITEMS.get(1) + "}\n{\"Item\":"
                + ITEMS.get(2).replace("\"sk\":{\"N\":\"-1500\"}", "\"sk\":{\"S\":\"-1500\"}") + "}\n")
                .getBytes(StandardCharsets.UTF_8)), 2);
        d.manifests();

        try (SqliteStorage storage = open("ddb-restore-damaged-target")) {
            assertThatThrownBy(() -> TableRestore.restore(storage, d.root, Optional.of(KEY), ACCOUNT, "products", 2,
                    TableRestore.Listener.NONE, new TableRestore.Abort()))
                    .isInstanceOf(BackupFailure.class)
                    .hasMessageContaining("second.json.gz").hasMessageContaining("line 2");
            assertThat(storage.tables().listTables(ACCOUNT)).as("nothing created").isEmpty();
        }
    }
}

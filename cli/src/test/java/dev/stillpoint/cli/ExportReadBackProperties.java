package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.CheckedExport;
import dev.stillpoint.backup.ExportFormat;
import dev.stillpoint.backup.ExportKey;
import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportOptions;
import dev.stillpoint.backup.ExportReader;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.ExportTemps;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Every export reads back through the checked reader [E2, E3]: a generated table (every attribute type,
 * key shape, GSIs and LSIs) exported in our layout and in DynamoDB's (several data files) reads back as
 * exactly its items, in the same order as our items file, and our manifest gives back the table's
 * definition (key schema, attribute definitions, GSIs, LSIs with projections, stream specification).
 */
class ExportReadBackProperties {

    private static final String ACCOUNT = StorageCommand.DEFAULT_ACCOUNT;
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static SqliteStorage sqlite;

    private static synchronized SqliteStorage sqlite() {
        if (sqlite == null) {
            sqlite = SqliteStorage.open(SqliteConfig.file(Cli.scratch("read-back-props").resolve("rb.db"))
                    .withControlPlaneDelay(Duration.ZERO));
        }
        return sqlite;
    }

    @AfterContainer
    static void close() {
        if (sqlite != null) {
            sqlite.close();
        }
    }

    @Provide
    Arbitrary<GeneratedTables.Generated> tables() {
        return GeneratedTables.tables();
    }

    @Property(tries = 25)
    void bothLayoutsReadBackAsTheTable(@ForAll("tables") GeneratedTables.Generated t) throws Exception {
        String name = "rb_" + NAMES.incrementAndGet();
        CreateTableRequest request = t.named(name);
        TableDescription table = CreateTableCommand.createAndWait(sqlite().tables(), request, Duration.ofSeconds(30));
        List<Item> stored = t.stored(table);
        for (Item item : t.items()) {
            sqlite().tables().putItem(ACCOUNT, name, item);
        }
        Path dir = Cli.scratch("rb");
        ExportResult ours = TableExport.to(dir.resolve("ours")).run(sqlite().snapshots(), ACCOUNT, name);
        ExportResult ddb = TableExport.to(dir.resolve("ddb")).options(new ExportOptions(ExportFormat.DYNAMODB, true, 4))
                .run(sqlite().snapshots(), ACCOUNT, name);
        assertThat(ddb.dataFiles()).hasSize(Math.max(1, (stored.size() + 3) / 4));

        List<Item> inFile = Files.readAllLines(ours.dataFile()).stream().map(ItemJson::decode).toList();
        assertThat(inFile).containsExactlyInAnyOrderElementsOf(stored);

        CheckedExport readOurs = ExportReader.check(dir.resolve("ours"), "Restored", Optional.empty());
        assertThat(readOurs.itemCount()).isEqualTo(stored.size());
        assertThat(loaded(readOurs)).containsExactlyElementsOf(inFile);
        assertThat(readOurs.definition(ACCOUNT, "copy")).isEqualTo(t.named("copy"));

        ExportKey key = readOurs.key();
        CheckedExport readDdb = ExportReader.check(dir.resolve("ddb"), "Restored", Optional.of(key));
        assertThat(readDdb.itemCount()).isEqualTo(stored.size());
        assertThat(loaded(readDdb)).containsExactlyElementsOf(inFile);
        sqlite().tables().deleteTable(ACCOUNT, name);
    }

    private static List<Item> loaded(CheckedExport export) {
        List<Item> items = new ArrayList<>();
        export.load(3, items::addAll);
        return items;
    }
}

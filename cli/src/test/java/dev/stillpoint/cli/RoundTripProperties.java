package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.adapters.mongo.MongoConfig;
import dev.stillpoint.adapters.mongo.MongoStorage;
import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.ExportFormat;
import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportOptions;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.ExportTemps;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.Storage;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * Round trip as a property [E6]: a generated table (every attribute type, every key shape, GSIs and
 * LSIs, a stream specification or none, a time-to-live setting or none) exported, restored on another backend, exported again,
 * restored back and exported a third time gives byte-identical items files where the backends are
 * key-ordered (the same multiset otherwise) and equal descriptions apart from name, ARN, id, creation
 * time and restore summary; SQLite -> PostgreSQL -> SQLite and the reverse, on a SQLite file and the
 * embedded PostgreSQL, and SQLite -> MongoDB -> SQLite when {@code STILLPOINT_TEST_MONGODB_URI} names a
 * replica set (skipped with that reason otherwise).
 */
class RoundTripProperties {

    private static final String ACCOUNT = StorageCommand.DEFAULT_ACCOUNT;
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MONGO_URI = "STILLPOINT_TEST_MONGODB_URI";

    private static Path sqliteFile;
    private static SqliteStorage sqlite;
    private static PostgresStorage postgres;
    private static MongoStorage mongo;

    private static synchronized Storage sqlite() {
        if (sqlite == null) {
            sqliteFile = Cli.scratch("round-trip").resolve("rt.db");
            sqlite = SqliteStorage.open(SqliteConfig.file(sqliteFile).withControlPlaneDelay(Duration.ZERO));
        }
        return sqlite;
    }

    private static synchronized Storage postgres() {
        if (postgres == null) {
            postgres = PostgresStorage.open(PostgresConfig.shared(new PostgresConfig.Database(
                    CliPg.newDatabase("roundtrip", "unused"), null, null)).withControlPlaneDelay(Duration.ZERO));
        }
        return postgres;
    }

    private static synchronized Storage mongo() {
        if (mongo == null) {
            mongo = MongoStorage.open(MongoConfig.of(System.getenv(MONGO_URI)));
        }
        return mongo;
    }

    @AfterContainer
    static void close() {
        if (mongo != null) {
            mongo.close();
        }
        if (sqlite != null) {
            sqlite.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Provide
    Arbitrary<GeneratedTables.Generated> tables() {
        return GeneratedTables.tables();
    }

    @Property(tries = 6)
    void sqliteToPostgresToSqlite(@ForAll("tables") GeneratedTables.Generated table) throws Exception {
        roundTrip(table, sqlite(), postgres(), sqlite());
    }

    @Property(tries = 6)
    void postgresToSqliteToPostgres(@ForAll("tables") GeneratedTables.Generated table) throws Exception {
        roundTrip(table, postgres(), sqlite(), postgres());
    }

    @Property(tries = 6)
    @AddLifecycleHook(MongoGiven.class)
    void sqliteToMongoToSqlite(@ForAll("tables") GeneratedTables.Generated table) throws Exception {
        roundTrip(table, sqlite(), mongo(), sqlite());
    }

    /** Skips a MongoDB property, saying why, when no replica set is named. */
    static final class MongoGiven implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            String uri = System.getenv(MONGO_URI);
            return uri == null || uri.isBlank() ? SkipResult.skip(MONGO_URI + " names no MongoDB replica set")
                    : SkipResult.doNotSkip();
        }
    }

    private static void roundTrip(GeneratedTables.Generated t, Storage first, Storage second, Storage third) throws Exception {
        String source = "rt_src_" + NAMES.incrementAndGet();
        CreateTableRequest request = t.named(source);
        List<Item> stored = t.stored(CreateTableCommand.createAndWait(first.tables(), request, Duration.ofSeconds(30)));
        for (Item item : t.items()) {
            first.tables().putItem(ACCOUNT, source, item);
        }
        Path dir = Cli.scratch("rt");
        ExportResult a = export(first, source, dir.resolve("a"));

        String secondName = "rt_b_" + NAMES.incrementAndGet();
        TableRestore.Result restoredB = restore(second, dir.resolve("a"), secondName);
        assertThat(restoredB.items()).isEqualTo(stored.size());
        assertThat(restoredB.table().status()).isEqualTo(TableStatus.ACTIVE);
        assertThat(restoredB.table().timeToLive()).as("[E4] the exported time to live").isEqualTo(request.timeToLive());
        assertThat(restoredB.table().restoreSummary()).hasValueSatisfying(s -> {
            assertThat(s.restoreInProgress()).isFalse();
            assertThat(s.sourceTableArn()).contains(a.description().tableArn());
        });
        ExportResult b = export(second, secondName, dir.resolve("b"));

        String thirdName = "rt_c_" + NAMES.incrementAndGet();
        restore(third, dir.resolve("b"), thirdName);
        ExportResult c = export(third, thirdName, dir.resolve("c"));

        byte[] itemsA = Files.readAllBytes(a.dataFile());
        for (ExportResult later : List.of(b, c)) {
            if (a.keyOrdered() && later.keyOrdered()) {
                assertThat(Files.readAllBytes(later.dataFile())).as("items file of %s", later.dataFile()).isEqualTo(itemsA);
            } else {
                assertThat(items(later)).as("items of %s", later.dataFile()).containsExactlyInAnyOrderElementsOf(items(a));
            }
        }
        assertThat(items(a)).containsExactlyInAnyOrderElementsOf(stored);
        JsonNode described = comparable(a);
        assertThat(comparable(b)).isEqualTo(described);
        assertThat(comparable(c)).isEqualTo(described);

        for (String name : List.of(source)) {
            first.tables().deleteTable(ACCOUNT, name);
        }
        second.tables().deleteTable(ACCOUNT, secondName);
        third.tables().deleteTable(ACCOUNT, thirdName);
    }

    private static List<Item> items(ExportResult r) throws Exception {
        return Files.readAllLines(r.dataFile()).stream().map(ItemJson::decode).toList();
    }

    private static ExportResult export(Storage storage, String table, Path out) {
        return TableExport.to(out).format(ExportFormat.STILLPOINT).run(storage, ACCOUNT, table);
    }

    private static TableRestore.Result restore(Storage storage, Path from, String name) {
        return TableRestore.from(from).batchSize(7).run(storage, ACCOUNT, name);
    }

    /** The manifest's description without what a restore changes by design [E6]. */
    private static JsonNode comparable(ExportResult r) throws Exception {
        ObjectNode table = (ObjectNode) JSON.readTree(r.manifestFile().toFile()).get("table");
        table.remove(List.of("TableName", "TableArn", "TableId", "CreationDateTime", "RestoreSummary"));
        return table;
    }
}

package dev.stillpoint.adapters.postgres.restore;

import static dev.stillpoint.properties.fixtures.RestoreFixtures.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The restore lifecycle on PostgreSQL, both layouts [E4, E5]: CREATING with its restore in progress,
 * filled only through its load, ACTIVE once complete with every item and index entry; a name in use
 * refused before anything is written; a load closed without completing, or killed with its JVM, leaves
 * no row and no relation behind.
 */
class PostgresRestoreTest {

    /** The killed children's stderr: JUnit removes it, so no run leaves files in the system's temp directory. */
    @TempDir
    static Path childOutput;

    private static final String SOURCE_ARN = "arn:aws:dynamodb:us-east-1:111122223333:table/Source";
    private static final Instant RESTORED_AT = Instant.parse("2026-11-30T12:00:00.123Z");
    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.of(SOURCE_ARN), RESTORED_AT);
    /** A short idle sweep, so a pass comes within a second of anything due. */
    private static final PollerSchedule FAST = new PollerSchedule(Duration.ofSeconds(1), Duration.ofMillis(500));

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("restore");

    // E4: CREATING with the summary in progress and not activated by the delay; PutItem from elsewhere
    // refused; complete -> ACTIVE, summary not in progress, items and GSI/LSI entries all there.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e4_restoreIsCreatingUntilCompleteThenActiveWithItemsAndIndexEntries(Layout layout) throws Exception {
        String name = "restored_" + layout.name().toLowerCase();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(name), ORIGIN);
            TableDescription begun = load.table();
            assertThat(begun.status()).isEqualTo(TableStatus.CREATING);
            assertThat(begun.restoreSummary()).contains(new RestoreSummary(Optional.empty(), Optional.of(SOURCE_ARN),
                    RESTORED_AT, true));
            assertThat(begun.timeToLive()).contains(RestoreFixtures.TIME_TO_LIVE);
            assertThat(storage.tables().describeTable(ACCOUNT, name)).isEqualTo(begun);

            String plain = "plain_" + layout.name().toLowerCase();
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, plain).partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, plain, Duration.ofSeconds(30));
            assertThat(storage.tables().describeTable(ACCOUNT, name).status())
                    .as("a restoring table is not activated by the control-plane delay").isEqualTo(TableStatus.CREATING);

            load.write(RestoreFixtures.items(0, 60));
            load.write(RestoreFixtures.items(60, 40));
            assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, name, RestoreFixtures.item(500)))
                    .as("a PutItem from elsewhere on a restoring table").isInstanceOf(StorageException.class)
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);

            TableDescription completed = load.complete();
            load.close();
            assertThat(completed.status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(completed.restoreSummary()).contains(new RestoreSummary(Optional.empty(), Optional.of(SOURCE_ARN),
                    RESTORED_AT, false));
            assertThat(completed.timeToLive()).as("the time to live as the catalog keeps it")
                    .contains(RestoreFixtures.TIME_TO_LIVE);
            assertThat(storage.tables().describeTable(ACCOUNT, name)).isEqualTo(completed);
            // Issue 29: the counts are the table's at once (not 0 until the next statistics pass), and the bytes
            // in the statistics pass's measure (stored JSON). A restore writes each key once: the bulk path
            // refuses a repeated key [B1] (the CLI's check drops the earlier line first under last-wins [V4]).
            assertThat(completed.itemCount()).as("ItemCount right after the restore").isEqualTo(100);
            assertThat(completed.tableSizeBytes()).as("TableSizeBytes right after the restore")
                    .isEqualTo(storedBytes(layout, completed.tableId()));
            assertThat(completed.globalSecondaryIndexes().get(0).itemCount())
                    .as("the GSI's ItemCount right after the restore: the 50 items with g").isEqualTo(50);
            assertThat(completed.localSecondaryIndexes().get(0).itemCount())
                    .as("the LSI's ItemCount right after the restore: the 34 items with l").isEqualTo(34);
            for (int i = 0; i < 100; i++) {
                Item expected = RestoreFixtures.item(i);
                assertThat(storage.tables().getItem(ACCOUNT, name, RequestKey.of("pk", expected.get("pk"), "sk", expected.get("sk"))))
                        .as("item %d", i).contains(expected);
            }
            assertThat(rows(layout, completed.tableId(), "")).isEqualTo(100);
            assertThat(rows(layout, completed.tableId(), "__gsi__0")).as("GSI entries: the 50 items with g").isEqualTo(50);
            assertThat(rows(layout, completed.tableId(), "__lsi__1")).as("LSI entries: the 34 items with l").isEqualTo(34);
        }
    }

    // E4: a name in use is refused up front, naming it, with nothing changed; a bad item is refused naming it.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e4_nameInUseAndBadItemsAreRefusedNamingThem(Layout layout) throws Exception {
        String taken = "taken_" + layout.name().toLowerCase();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, taken).partitionKey("pk", ScalarType.S).build());
            TableDescription before = TableWaiter.awaitActive(storage.tables(), ACCOUNT, taken, Duration.ofSeconds(30));
            long relationsBefore = relations(layout, "");
            assertThatThrownBy(() -> storage.restores().begin(RestoreFixtures.definition(taken), ORIGIN))
                    .isInstanceOf(StorageException.class).hasMessageContaining("'" + taken + "'")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
            assertThat(storage.tables().describeTable(ACCOUNT, taken)).isEqualTo(before);
            assertThat(relations(layout, "")).isEqualTo(relationsBefore);

            String checked = "checked_" + layout.name().toLowerCase();
            try (RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(checked), ORIGIN)) {
                Item wrongGsiType = Item.of(Map.of("pk", new AttributeValue.S("p"), "sk", AttributeValue.N.of("1"),
                        "g", AttributeValue.N.of("7")));
                assertThatThrownBy(() -> load.write(List.of(RestoreFixtures.item(0), wrongGsiType)))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("item 2 of 2").hasMessageContaining("'g'")
                        .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION);
                // A chunk is one unit of work: the good item beside the bad one went with it.
                assertThat(rows(layout, load.table().tableId(), "")).as("nothing of a refused chunk").isZero();
                load.write(List.of(RestoreFixtures.item(0)));
                // The bulk path commits its COPYs when the load completes [B1]: counted after.
                load.complete();
                assertThat(rows(layout, load.table().tableId(), "")).as("the load goes on after a refusal").isEqualTo(1);
            }
        }
    }

    // E5: close without complete removes the table through DeleteTable's path: no row, no relation left.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e5_closeWithoutCompleteLeavesNoTableAndNoRelation(Layout layout) throws Exception {
        String name = "abandoned_" + layout.name().toLowerCase();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(name), ORIGIN);
            String id = load.table().tableId();
            load.write(RestoreFixtures.items(0, 30));
            assertThat(relations(layout, id)).isEqualTo(3);
            load.close();
            load.close();
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, name))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(layout, id);
        }
    }

    // E5: "a restore killed in the middle leaves no table behind after the next start" (SIGKILL of a child JVM).
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e5_aRestoreKilledInTheMiddleLeavesNoTableBehindAfterTheNextStart(Layout layout) throws Exception {
        String name = "killed_" + layout.name().toLowerCase();
        Duration limit = Duration.ofSeconds(2);
        PostgresConfig config = databases.undelayed(layout);
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PgRestoreChild.class.getName(), name, Long.toString(limit.toMillis()),
                config.catalog().jdbcUrl(), config.catalog().user(), config.catalog().password()));
        config.data().ifPresent(d -> command.addAll(List.of(d.jdbcUrl(), d.user(), d.password())));
        Path stderr = Files.createTempFile(childOutput, "pg-restore-child-", ".txt");
        String id = KilledRestore.run(command, stderr);
        long killedAt = System.nanoTime();
        assertThat(status(layout, id)).as("the killed restore's row").contains("CREATING");
        // The child's items were in its load's one data transaction, which died with it [B1]: the relations
        // are left as the restore created them, and its row CREATING, until a poller removes them.
        assertThat(relations(layout, id)).as("the killed restore's relations").isEqualTo(3);

        try (PostgresStorage fresh = PostgresStorage.open(config.withPollerSchedule(FAST).withRestoreIdleLimit(limit))) {
            long deadline = killedAt + TimeUnit.SECONDS.toNanos(30);
            while (status(layout, id).isPresent() && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
            double seconds = (System.nanoTime() - killedAt) / 1e9;
            assertThat(status(layout, id)).as("the killed restore's row %.2f s after the kill", seconds).isEmpty();
            assertThat(seconds).as("seconds from the kill to the removal").isLessThan(limit.getSeconds() + 3);
            System.out.printf("%s: killed restore removed %.2f s after the kill (restoreIdleLimit %d ms)%n", layout,
                    seconds, limit.toMillis());
            assertThatThrownBy(() -> fresh.tables().describeTable(ACCOUNT, name))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(layout, id);
        }
    }

    // ------------------------------------------------------------------------------------------

    private static void assertNothingLeft(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.catalogDatabase(layout).connect()) {
            for (String table : List.of("sp_tables", "sp_indexes", "sp_vector_indexes", "sp_restore_records")) {
                assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM " + table + " WHERE table_id = ?", tableId))
                        .as("rows of %s for the table", table).isZero();
            }
        }
        assertThat(relations(layout, tableId)).as("relations of the table").isZero();
    }

    /** Relations named {@code d_<tableId>...} in the data database (every one of ours when the id is empty). */
    private static long relations(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.count(c, "SELECT count(*) FROM pg_class WHERE relkind = 'r' AND starts_with(relname::text, ?)",
                    "d_" + tableId);
        }
    }

    private static long rows(Layout layout, String tableId, String suffix) throws Exception {
        try (Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.count(c, "SELECT count(*) FROM \"d_" + tableId + suffix + "\"", null);
        }
    }

    private static long storedBytes(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.count(c, "SELECT sum(octet_length(item)) FROM \"d_" + tableId + "\"", null);
        }
    }

    private static Optional<String> status(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.catalogDatabase(layout).connect()) {
            return SqlCatalogAccess.status(c, tableId);
        }
    }
}

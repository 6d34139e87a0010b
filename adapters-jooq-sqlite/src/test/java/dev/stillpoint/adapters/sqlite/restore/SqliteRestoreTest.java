package dev.stillpoint.adapters.sqlite.restore;

import static dev.stillpoint.properties.fixtures.RestoreFixtures.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
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
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The restore lifecycle on SQLite [E4, E5]: a new table CREATING with its restore in progress, filled
 * only through its load (items checked as PutItem checks them, index entries written), ACTIVE once
 * complete; a name in use refused before anything is written; a load closed without completing, or
 * killed with its JVM, leaves no table and no relation behind.
 */
class SqliteRestoreTest {

    private static final String SOURCE_ARN = "arn:aws:dynamodb:us-east-1:111122223333:table/Source";
    private static final Instant RESTORED_AT = Instant.parse("2026-11-30T12:00:00.123Z");
    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.of(SOURCE_ARN), RESTORED_AT);

    private static SqliteConfig config(Path file) {
        return SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO);
    }

    // E4: CREATING with the summary in progress, not activated by the delay, PutItem from elsewhere refused;
    // complete -> ACTIVE, summary not in progress (time and source kept), items and index entries all there.
    @Test
    void e4_restoreIsCreatingUntilCompleteThenActiveWithItemsAndIndexEntries() throws Exception {
        Path file = TestDatabases.newFile("restore");
        try (SqliteStorage storage = SqliteStorage.open(config(file))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("restored"), ORIGIN);
            TableDescription begun = load.table();
            assertThat(begun.status()).isEqualTo(TableStatus.CREATING);
            assertThat(begun.restoreSummary()).contains(new RestoreSummary(Optional.empty(), Optional.of(SOURCE_ARN),
                    RESTORED_AT, true));
            assertThat(begun.globalSecondaryIndexes()).extracting(g -> g.name()).containsExactly("byG");
            assertThat(begun.localSecondaryIndexes()).extracting(l -> l.name()).containsExactly("byL");
            assertThat(begun.streamSpecification()).isEqualTo(RestoreFixtures.definition("other").stream());
            assertThat(begun.timeToLive()).contains(RestoreFixtures.TIME_TO_LIVE);
            assertThat(storage.tables().describeTable(ACCOUNT, "restored")).isEqualTo(begun);

            // A plain CREATING table with a zero delay turns ACTIVE on the next pass; the restored one must not.
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "plain").partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, "plain", Duration.ofSeconds(30));
            assertThat(storage.tables().describeTable(ACCOUNT, "restored").status())
                    .as("a restoring table is not activated by the control-plane delay").isEqualTo(TableStatus.CREATING);

            load.write(RestoreFixtures.items(0, 60));
            load.write(List.of());
            load.write(RestoreFixtures.items(60, 40));
            assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, "restored", RestoreFixtures.item(500)))
                    .as("a PutItem from elsewhere on a restoring table").isInstanceOf(StorageException.class)
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);

            TableDescription completed = load.complete();
            assertThat(completed.status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(completed.restoreSummary()).contains(new RestoreSummary(Optional.empty(), Optional.of(SOURCE_ARN),
                    RESTORED_AT, false));
            assertThat(completed.timeToLive()).as("the time to live as the catalog keeps it")
                    .contains(RestoreFixtures.TIME_TO_LIVE);
            load.close(); // after complete: nothing to undo
            assertThat(storage.tables().describeTable(ACCOUNT, "restored")).isEqualTo(completed);
            // Issue 29: the counts are the table's at once (not 0 until the next statistics pass), and the bytes
            // in the statistics pass's measure (stored JSON). A restore writes each key once: the bulk path
            // refuses a repeated key [B1] (the CLI's check drops the earlier line first under last-wins [V4]).
            assertThat(completed.itemCount()).as("ItemCount right after the restore").isEqualTo(100);
            assertThat(completed.tableSizeBytes()).as("TableSizeBytes right after the restore")
                    .isEqualTo(storedBytes(file, completed.tableId()));
            assertThat(completed.globalSecondaryIndexes().get(0).itemCount())
                    .as("the GSI's ItemCount right after the restore: the 50 items with g").isEqualTo(50);
            assertThat(completed.localSecondaryIndexes().get(0).itemCount())
                    .as("the LSI's ItemCount right after the restore: the 34 items with l").isEqualTo(34);

            for (int i = 0; i < 100; i++) {
                Item expected = RestoreFixtures.item(i);
                assertThat(storage.tables().getItem(ACCOUNT, "restored", RequestKey.of("pk", expected.get("pk"), "sk", expected.get("sk"))))
                        .as("item %d", i).contains(expected);
            }
            assertThat(rows(file, completed.tableId(), "")).isEqualTo(100);
            assertThat(rows(file, completed.tableId(), "__gsi__0")).as("GSI entries: the 50 items with g").isEqualTo(50);
            assertThat(rows(file, completed.tableId(), "__lsi__1")).as("LSI entries: the 34 items with l").isEqualTo(34);
            storage.tables().putItem(ACCOUNT, "restored", RestoreFixtures.item(500)); // an ordinary table now
        }
    }

    // E4: a name in use (ACTIVE, or being restored) is refused up front, naming it, and nothing changes.
    @Test
    void e4_nameInUseIsRefusedUpFrontWithNothingChanged() throws Exception {
        Path file = TestDatabases.newFile("restore-taken");
        try (SqliteStorage storage = SqliteStorage.open(config(file))) {
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "taken").partitionKey("pk", ScalarType.S).build());
            TableDescription before = TableWaiter.awaitActive(storage.tables(), ACCOUNT, "taken", Duration.ofSeconds(30));
            int relationsBefore = relations(file);

            assertThatThrownBy(() -> storage.restores().begin(RestoreFixtures.definition("taken"), ORIGIN))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("'taken'")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
            assertThat(storage.tables().describeTable(ACCOUNT, "taken")).isEqualTo(before);
            assertThat(relations(file)).isEqualTo(relationsBefore);

            try (RestoreLoad first = storage.restores().begin(RestoreFixtures.definition("twice"), ORIGIN)) {
                int relationsDuring = relations(file);
                assertThatThrownBy(() -> storage.restores().begin(RestoreFixtures.definition("twice"), ORIGIN))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("'twice'").hasMessageContaining("CREATING")
                        .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                assertThat(relations(file)).isEqualTo(relationsDuring);
                assertThat(storage.tables().describeTable(ACCOUNT, "twice").tableId()).isEqualTo(first.table().tableId());
            }
            assertThat(storage.tables().listTables(ACCOUNT)).containsExactly("taken");
        }
    }

    // E4, R3: every item is checked as PutItem checks it; the refusal names the item and what is wrong,
    // and the chunk it came in (one unit of work) is written whole or not at all.
    @Test
    void e4_aBadItemIsRefusedNamingIt() throws Exception {
        Path file = TestDatabases.newFile("restore-bad");
        try (SqliteStorage storage = SqliteStorage.open(config(file));
             RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("checked"), ORIGIN)) {
            Item wrongGsiType = Item.of(Map.of("pk", new AttributeValue.S("p"), "sk", AttributeValue.N.of("1"),
                    "g", AttributeValue.N.of("7")));
            assertThatThrownBy(() -> load.write(List.of(RestoreFixtures.item(0), wrongGsiType)))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("'checked'").hasMessageContaining("item 2 of 2").hasMessageContaining("'g'")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION);
            Item noSortKey = Item.of(Map.of("pk", new AttributeValue.S("p")));
            assertThatThrownBy(() -> load.write(List.of(noSortKey)))
                    .isInstanceOf(StorageException.class).hasMessageContaining("item 1 of 1").hasMessageContaining("'sk'")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(storage.tables().describeTable(ACCOUNT, "checked").status()).isEqualTo(TableStatus.CREATING);
            // A chunk is one unit of work: the good item written beside the bad one went with it.
            assertThat(rows(file, load.table().tableId(), "")).as("nothing of a refused chunk is in").isZero();
            assertThat(rows(file, load.table().tableId(), "__gsi__0")).isZero();
            load.write(List.of(RestoreFixtures.item(0)));
            assertThat(rows(file, load.table().tableId(), "")).as("the load goes on after a refusal").isEqualTo(1);
        }
    }

    // E5: close without complete removes the table through DeleteTable's path: no row, no relation left.
    @Test
    void e5_closeWithoutCompleteLeavesNoTableAndNoRelation() throws Exception {
        Path file = TestDatabases.newFile("restore-closed");
        try (SqliteStorage storage = SqliteStorage.open(config(file))) {
            int relationsBefore = relations(file);
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("abandoned"), ORIGIN);
            String id = load.table().tableId();
            load.write(RestoreFixtures.items(0, 30));
            assertThat(relations(file)).isEqualTo(relationsBefore + 3);

            load.close();
            load.close(); // idempotent

            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, "abandoned"))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(file, id);
            assertThat(relations(file)).isEqualTo(relationsBefore);
            assertThatThrownBy(() -> load.write(RestoreFixtures.items(30, 1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("closed");
            assertThatThrownBy(load::complete).isInstanceOf(StorageException.class).hasMessageContaining("closed");
            // The name is free again.
            try (RestoreLoad again = storage.restores().begin(RestoreFixtures.definition("abandoned"), ORIGIN)) {
                assertThat(again.table().tableId()).isNotEqualTo(id);
                again.complete();
            }
            assertThat(storage.tables().describeTable(ACCOUNT, "abandoned").status()).isEqualTo(TableStatus.ACTIVE);
        }
    }

    // E5: "a restore killed in the middle leaves no table behind after the next start": a child JVM
    // is killed (SIGKILL, no hook runs) while writing; a fresh engine removes the table within the limit.
    @Test
    void e5_aRestoreKilledInTheMiddleLeavesNoTableBehindAfterTheNextStart() throws Exception {
        Path file = TestDatabases.newFile("restore-killed");
        Duration limit = Duration.ofSeconds(2);
        try (SqliteStorage storage = SqliteStorage.open(config(file))) {
            storage.tables().listTables(ACCOUNT); // migrated before the child opens it
        }
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = Files.createTempFile(file.getParent(), "child-", ".txt");
        String id = KilledRestore.run(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), RestoreChild.class.getName(),
                file.toString(), "killed", Long.toString(limit.toMillis())), stderr);
        long killedAt = System.nanoTime();
        assertThat(status(file, id)).as("the killed restore's row").contains("CREATING");
        assertThat(rows(file, id, "")).as("items the child wrote").isGreaterThanOrEqualTo(50);

        try (SqliteStorage fresh = SqliteStorage.open(config(file).withRestoreIdleLimit(limit))) {
            long deadline = killedAt + TimeUnit.SECONDS.toNanos(30);
            while (status(file, id).isPresent() && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
            double seconds = (System.nanoTime() - killedAt) / 1e9;
            assertThat(status(file, id)).as("the killed restore's row %.2f s after the kill", seconds).isEmpty();
            // The child renewed its stamp at most a quarter limit before it died; a pass is due at the stamp.
            assertThat(seconds).as("seconds from the kill to the removal").isLessThan(limit.getSeconds() + 3);
            System.out.printf("killed restore removed %.2f s after the kill (restoreIdleLimit %d ms)%n", seconds,
                    limit.toMillis());
            assertThatThrownBy(() -> fresh.tables().describeTable(ACCOUNT, "killed"))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(file, id);
        }
    }

    // E5: DeleteTable of a restore whose stamp has passed removes it through the drop attempt, as the sweep
    // would; while the stamp holds it is refused as CREATING. The poller is kept out of the way: an hour
    // between passes, its startup pass awaited before the restore begins, and a clock only the test moves.
    @Test
    void e5_deleteTableRemovesADeadRestoreAndRefusesALiveOne() throws Exception {
        Path file = TestDatabases.newFile("restore-dead-delete");
        AtomicReference<Instant> now =
                new AtomicReference<>(Instant.parse("2026-12-06T10:00:00Z"));
        TimeSource clock = new TimeSource() {
            @Override
            public Instant now() {
                return now.get();
            }

            @Override
            public long monotonicNanos() {
                return System.nanoTime();
            }
        };
        Duration limit = Duration.ofSeconds(60);
        try (SqliteStorage storage = SqliteStorage.open(config(file).withTime(clock).withRestoreIdleLimit(limit)
                .withPollerSchedule(new PollerSchedule(Duration.ofHours(1),
                        Duration.ofHours(1))))) {
            assertThat(storage.awaitStartupRecovery(Duration.ofSeconds(30))).as("startup pass done").isTrue();
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("dead"), ORIGIN);
            String id = load.table().tableId();
            assertThatThrownBy(() -> storage.tables().deleteTable(ACCOUNT, "dead")).as("a live restore")
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                        assertThat(e.getMessage()).contains("a restore is filling it");
                    });
            now.set(now.get().plus(limit).plusSeconds(1));
            assertThat(storage.tables().deleteTable(ACCOUNT, "dead").status()).isEqualTo(TableStatus.DELETING);
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, "dead"))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(file, id);
            assertThatThrownBy(() -> load.write(RestoreFixtures.items(0, 1))).as("the dead restore's own load")
                    .isInstanceOf(StorageException.class);
        }
    }

    // ------------------------------------------------------------------------------------------

    private static void assertNothingLeft(Path file, String tableId) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            for (String table : List.of("sp_tables", "sp_indexes", "sp_vector_indexes", "sp_restore_records")) {
                assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM " + table + " WHERE table_id = ?", tableId))
                        .as("rows of %s for the table", table).isZero();
            }
            assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name GLOB ?",
                    "d_" + tableId + "*")).as("relations of the table").isZero();
        }
    }

    private static int relations(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return (int) SqlCatalogAccess.count(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name GLOB ?", "d_*");
        }
    }

    private static long rows(Path file, String tableId, String suffix) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return SqlCatalogAccess.count(c, "SELECT count(*) FROM \"d_" + tableId + suffix + "\"", null);
        }
    }

    private static long storedBytes(Path file, String tableId) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return SqlCatalogAccess.count(c, "SELECT sum(length(CAST(item AS BLOB))) FROM \"d_" + tableId + "\"", null);
        }
    }

    private static Optional<String> status(Path file, String tableId) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return SqlCatalogAccess.status(c, tableId);
        }
    }
}

package dev.stillpoint.adapters.postgres.restore;

import static dev.stillpoint.properties.fixtures.RestoreFixtures.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.engine.PgBulkLoads;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableBuilder;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.HostileItems;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Restore's bulk path on PostgreSQL, both layouts [B1, E4, E5]: items with hostile text and bytes go through
 * COPY and come out exactly as PutItem stores them (every column of the base and index relations equal),
 * each index entry once; a load that fails leaves no table and no relation; and a restore killed with
 * SIGKILL while its COPY is open (or, at -j 2, both writers' COPYs) leaves nothing once a fresh engine's
 * poller has run.
 */
class PostgresBulkRestoreTest {

    /** The killed children's stderr: JUnit removes it, so no run leaves files in the system's temp directory. */
    @TempDir
    static Path childOutput;

    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.empty(), Instant.parse("2026-12-03T12:00:00Z"));
    private static final PollerSchedule FAST = new PollerSchedule(Duration.ofSeconds(1), Duration.ofMillis(500));
    /** Past the load's budget of rows (PgBulkLoads.FLUSH_BYTES, 2 MiB), so COPYs are sent mid-load and at finish. */
    private static final int ITEMS = 1200;

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("bulk");

    // B1 [V2]: the bulk path stores exactly what PutItem stores, for text with tabs, backslashes, newlines,
    // COPY's markers, multi-byte UTF-8, binary keys with 0x00/'\\'/tab/newline and numbers at the limits.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b1_hostileItemsRoundTripThroughCopyAsPutItemStoresThem(Layout layout) throws Exception {
        String restored = "bulk_" + layout.name().toLowerCase();
        String put = "put_" + layout.name().toLowerCase();
        List<Item> items = HostileItems.items(ITEMS);
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableDescription done;
            try (RestoreLoad load = storage.restores().begin(HostileItems.definition(ACCOUNT, restored), ORIGIN)) {
                for (int from = 0; from < items.size(); from += 37) {
                    load.write(items.subList(from, Math.min(items.size(), from + 37)));
                }
                done = load.complete();
            }
            storage.tables().createTable(HostileItems.definition(ACCOUNT, put));
            TableDescription byPut = TableWaiter.awaitActive(storage.tables(), ACCOUNT, put, Duration.ofSeconds(30));
            items.forEach(item -> storage.tables().putItem(ACCOUNT, put, item));

            assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
            for (Item item : items) {
                assertThat(storage.tables().getItem(ACCOUNT, restored, RequestKey.of("pk", item.get("pk"), "sk", item.get("sk"))))
                        .as("item %s read back", item.get("pk")).contains(item);
            }
            for (String suffix : List.of("", "__gsi__0", "__gsi__1")) {
                List<String> bulkRows = dump(layout, done.tableId() + suffix);
                assertThat(bulkRows).as("relation %s: every column as PutItem stored it", suffix)
                        .isEqualTo(dump(layout, byPut.tableId() + suffix));
            }
            assertThat(dump(layout, done.tableId())).as("base rows").hasSize(ITEMS);
            assertThat(dump(layout, done.tableId() + "__gsi__0")).as("byG entries: one per item with g")
                    .hasSize((int) HostileItems.inIndex(ITEMS, true));
            assertThat(dump(layout, done.tableId() + "__gsi__1")).as("byB entries: one per item with b")
                    .hasSize((int) HostileItems.inIndex(ITEMS, false));
        }
    }

    // B1 [S7]: a load holds at most its budget of rows (PgBulkLoads.FLUSH_BYTES) plus one item's, whatever the
    // number of indexes: with five GSIs projecting ALL an item's text stands in six relations, and every
    // relation's rows go out once the six buffers together reach the budget. Found from outside: with a budget
    // per relation a load held one budget per relation, and `restore -j 2` of a 120,000-item export (one GSI)
    // ran out of a 48 MiB heap. The copy hook counts the COPYs each write sends.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b1_aLoadHoldsAtMostItsBudgetOfRowsWhateverTheNumberOfIndexes(Layout layout) throws Exception {
        String name = "budget_" + layout.name().toLowerCase();
        int indexes = 5;
        int padChars = 50_000;
        CreateTableBuilder definition = CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.S);
        for (int g = 0; g < indexes; g++) {
            definition.globalIndex("by_g" + g, "g" + g, ScalarType.S, Projection.all());
        }
        long itemRows = (long) (indexes + 1) * padChars;
        int mostItemsHeld = (int) (PgBulkLoads.FLUSH_BYTES / itemRows) + 1;
        int written = 3 * mostItemsHeld;
        AtomicInteger copies = new AtomicInteger();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout)
                .withCopyHook(copies::incrementAndGet))) {
            List<Item> items = new ArrayList<>();
            try (RestoreLoad load = storage.restores().begin(definition.build(), ORIGIN)) {
                int unsent = 0;
                int mostUnsent = 0;
                for (int i = 0; i < written; i++) {
                    Map<String, AttributeValue> attributes = new LinkedHashMap<>();
                    attributes.put("pk", AttributeValue.s("item" + i));
                    for (int g = 0; g < indexes; g++) {
                        attributes.put("g" + g, AttributeValue.s("v" + i));
                    }
                    attributes.put("pad", AttributeValue.s(Character.toString('a' + i % 26).repeat(padChars)));
                    items.add(Item.of(attributes));
                    int before = copies.get();
                    load.write(List.of(items.get(i)));
                    if (copies.get() == before) {
                        unsent++;
                    } else {
                        assertThat(copies.get() - before).as("COPYs sent by write %d: every relation's rows", i)
                                .isEqualTo(indexes + 1);
                        unsent = 0;
                    }
                    mostUnsent = Math.max(mostUnsent, unsent);
                }
                assertThat(mostUnsent).as("items whose rows the load held unsent at once (each at least %d bytes of"
                        + " rows, the budget %d bytes)", itemRows, PgBulkLoads.FLUSH_BYTES)
                        .isLessThanOrEqualTo(mostItemsHeld);
                assertThat(load.complete().status()).isEqualTo(TableStatus.ACTIVE);
            }
            for (Item item : items) {
                assertThat(storage.tables().getItem(ACCOUNT, name, RequestKey.of("pk", item.get("pk"))))
                        .as("item %s read back", item.get("pk")).contains(item);
            }
        }
    }

    // E5 [B1]: a load that fails (two items with one key, found by the base relation's primary key when the
    // COPY is sent) leaves no table and no relation once the restore is closed.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b1_aLoadFailingMidwayLeavesNoTableAndNoRelation(Layout layout) throws Exception {
        String name = "failing_" + layout.name().toLowerCase();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(name), ORIGIN);
            String id = load.table().tableId();
            load.write(RestoreFixtures.items(0, 300));
            load.write(List.of(RestoreFixtures.item(5)));
            assertThatThrownBy(load::complete).as("completing a load holding one key twice")
                    .isInstanceOf(StorageException.class).hasMessageContaining("two items with one primary key")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION);
            load.close();
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, name))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(layout, id);
        }
    }

    // E5 [B1]: closing a load whose COPY was sent (its transaction open, holding the relations' locks) leaves
    // no table and no relation at once: the load is closed before the drop, which would otherwise wait for it.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b1_closingALoadThatHoldsItsRelationsLeavesNothing(Layout layout) throws Exception {
        String name = "holding_" + layout.name().toLowerCase();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(name), ORIGIN);
            String id = load.table().tableId();
            load.write(RestoreFixtures.paddedItems(0, 40, 300_000));   // 12 MB: past the 2 MiB budget, so COPYs went out in the open transaction
            load.close();
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, name)).as("the table right after close")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertNothingLeft(layout, id);
        }
    }

    // E5 [B1], issue 30's Done-when: a restore killed with SIGKILL while its COPY runs leaves nothing after a
    // fresh engine starts. The child's copy hook holds its COPY open (rows sent, not ended); the test sees the
    // COPY active at the server, kills the child, and a fresh engine's poller removes the table.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e5_aRestoreKilledDuringCopyLeavesNothingAfterAFreshEngineStarts(Layout layout) throws Exception {
        killDuringCopiesThenSweep(layout, "copykilled_", 1);
    }

    // E5 [B1, B3]: the same with restore -j 2's shape: two threads write through one restore, each on a load (a
    // connection and transaction) of its own, and the child is killed while BOTH COPYs are open at the server.
    // Neither transaction commits, and a fresh engine's poller removes the table and every relation.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void e5_aParallelRestoreKilledWithEveryWriterInCopyLeavesNothingAfterAFreshEngineStarts(Layout layout)
            throws Exception {
        killDuringCopiesThenSweep(layout, "copieskilled_", 2);
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Runs {@link PgCopyKillChild} with {@code writers} threads writing, checks that that many COPYs into the
     * table's relations are active at the server when it reports, kills it, and then has a fresh engine (a 2 s
     * restore idle limit, a fast poller) remove everything: no catalog row, no relation.
     */
    private static void killDuringCopiesThenSweep(Layout layout, String prefix, int writers) throws Exception {
        String name = prefix + layout.name().toLowerCase();
        Duration limit = Duration.ofSeconds(2);
        PostgresConfig config = databases.undelayed(layout);
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PgCopyKillChild.class.getName(), name, Integer.toString(writers), Long.toString(limit.toMillis()),
                config.catalog().jdbcUrl(), config.catalog().user(), config.catalog().password()));
        config.data().ifPresent(d -> command.addAll(List.of(d.jdbcUrl(), d.user(), d.password())));
        Path stderr = Files.createTempFile(childOutput, "pg-copy-kill-child-", ".txt");
        // The check runs before the kill, while every writer's COPY is held open by the child's hook.
        String id = KilledRestore.run(command, stderr, 120, tableId -> assertThat(copiesRunning(layout, tableId))
                .as("COPYs into the table's relations at the server when the child is killed").isEqualTo(writers));
        long killedAt = System.nanoTime();
        assertThat(status(layout, id)).as("the killed restore's row").contains("CREATING");

        try (PostgresStorage fresh = PostgresStorage.open(config.withPollerSchedule(FAST).withRestoreIdleLimit(limit))) {
            long deadline = killedAt + TimeUnit.SECONDS.toNanos(30);
            while ((status(layout, id).isPresent() || relations(layout, id) > 0) && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
            // The catalog rows and relations first: their assertions name what was left.
            assertNothingLeft(layout, id);
            assertThatThrownBy(() -> fresh.tables().describeTable(ACCOUNT, name))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
        }
    }

    /** Every row of relation {@code d_<suffixedId>}, each column as text, in primary-key order. */
    private static List<String> dump(Layout layout, String relation) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM \"d_" + relation + "\" ORDER BY 1, 2, 3"
                     + (relation.contains("__") ? ", 4" : ""))) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? " | " : "").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** Server sessions running a COPY into one of the table's relations. */
    private static long copiesRunning(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.count(c, "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                    + " AND query LIKE 'COPY %' AND position(? in query) > 0", "d_" + tableId);
        }
    }

    private static void assertNothingLeft(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.catalogDatabase(layout).connect()) {
            for (String table : List.of("sp_tables", "sp_indexes", "sp_vector_indexes", "sp_restore_records")) {
                assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM " + table + " WHERE table_id = ?", tableId))
                        .as("rows of %s for the table", table).isZero();
            }
        }
        assertThat(relations(layout, tableId)).as("relations of the table").isZero();
    }

    private static long relations(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.count(c, "SELECT count(*) FROM pg_class WHERE relkind = 'r' AND starts_with(relname::text, ?)",
                    "d_" + tableId);
        }
    }

    private static Optional<String> status(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.catalogDatabase(layout).connect()) {
            return SqlCatalogAccess.status(c, tableId);
        }
    }
}

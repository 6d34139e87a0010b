package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.postgres.engine.PostgresSnapshots;
import dev.stillpoint.adapters.postgres.testing.DaemonThreads;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PauseObserver;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Sessions;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PausePoint;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Snapshot behaviour specific to PostgreSQL, on both layouts [P1-P5, D7, S5, S7]. */
class PostgresSnapshotTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("snapshot");
    private static ExecutorService threads;

    @BeforeAll
    static void setUp() {
        threads = DaemonThreads.named("snapshot-test");
    }

    @AfterAll
    static void tearDown() {
        threads.shutdownNow();
    }

    private static String filled(TableOperations tables, int items) {
        String name = Tables.uniqueName("snap");
        Tables.createActive(tables, Tables.withIndexes(name));
        for (int i = 0; i < items; i++) {
            tables.putItem(ACCOUNT, name, Tables.item("p" + (i % 5), i, "g" + (i % 3), "l" + i));
        }
        return name;
    }

    // S5, D6, P2: every failed open gives back every connection it borrowed: after each failure the
    // engine's pools are back to no connection in use, read from the pools' own statistics (HikariCP's
    // HikariPoolMXBean of the catalog and the data pool). The failures: a table whose base relation
    // was dropped behind the catalog (damage, INTERNAL, at the pin, the data connection borrowed; the row read
    // again on a catalog connection of its own, given back too: PostgresDamagedRelationTest), an open
    // failing at AFTER_DEFINITION (data connection borrowed, catalog row FOR SHARE) and at BEFORE_ITEMS
    // (pinned: catalog given back, data transaction open), and a table that is not ACTIVE.
    // Mutant run by hand (again after issue 11's typed steps): PostgresSnapshots' Defined.close not
    // releasing the data connection of an open that failed between its definition and its pin (the
    // TransactionStatements.release(data) line removed) -> fails on the separate layout on "[S5] pools back to idle after a
    // failed open (missing base relation): data pool connections in use ... expected: 0 but was: 1"; the
    // shared layout (data == catalog) stays green.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void s5_poolsAreBackToIdleAfterEveryFailedOpen(Layout layout) throws Exception {
        FailingPause pauses = new FailingPause();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withObserver(pauses))) {
            TableOperations tables = storage.tables();
            PoolStatistics pools = PoolStatistics.of(storage);
            String gone = filled(tables, 3);
            try (Connection c = databases.dataSession(layout); Statement st = c.createStatement()) {
                st.execute("DROP TABLE d_" + tables.describeTable(ACCOUNT, gone).tableId());
            }
            assertThat(catchThrowableOfType(StorageException.class,
                    () -> storage.snapshots().openTableSnapshot(ACCOUNT, gone)).reason())
                    .isEqualTo(ErrorReason.INTERNAL);
            pools.assertIdle("missing base relation");

            String table = filled(tables, 3);
            for (PausePoint point : PausePoint.values()) {
                pauses.failAt = point;
                assertThat(catchThrowableOfType(StorageException.class,
                        () -> storage.snapshots().openTableSnapshot(ACCOUNT, table)).getMessage())
                        .contains("failing at " + point);
                pools.assertIdle("open failed at " + point);
            }
            pauses.failAt = null;

            try (PostgresStorage slow = PostgresStorage.open(databases.undelayed(layout).withControlPlaneDelay(Duration.ofHours(1)))) {
                String creating = Tables.uniqueName("creating");
                slow.tables().createTable(Tables.hashOnly(creating));
                assertThat(catchThrowableOfType(StorageException.class,
                        () -> storage.snapshots().openTableSnapshot(ACCOUNT, creating)).reason())
                        .isEqualTo(ErrorReason.RESOURCE_IN_USE);
                pools.assertIdle("table not ACTIVE");
            }
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
                assertThat(s.items().stream().count()).as("an open still works after the failures").isEqualTo(3);
            }
            pools.assertIdle("after a drained snapshot");
        }
    }

    /** Fails the open at one pause point, when armed. */
    private static final class FailingPause implements dev.stillpoint.ports.out.ReadObserver {
        volatile PausePoint failAt;

        @Override
        public void atPause(PausePoint point) {
            if (point == failAt) {
                throw new StorageException(ErrorReason.TRANSIENT, "failing at " + point);
            }
        }
    }

    /**
     * The engine's HikariCP pools as the pools themselves count their connections (HikariPoolMXBean,
     * which HikariDataSource hands out without JMX registration). The pools are private to the
     * engine, so they are reached by reflection: PostgresStorage.pools, then Pools.catalog and Pools.data.
     */
    private record PoolStatistics(com.zaxxer.hikari.HikariPoolMXBean catalog, com.zaxxer.hikari.HikariPoolMXBean data) {
        static PoolStatistics of(PostgresStorage storage) throws ReflectiveOperationException {
            Object pools = field(storage, "pools");
            return new PoolStatistics(bean(field(pools, "catalog")), bean(field(pools, "data")));
        }

        private static Object field(Object owner, String name) throws ReflectiveOperationException {
            java.lang.reflect.Field f = owner.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return f.get(owner);
        }

        private static com.zaxxer.hikari.HikariPoolMXBean bean(Object dataSource) {
            return ((com.zaxxer.hikari.HikariDataSource) dataSource).getHikariPoolMXBean();
        }

        /**
         * No connection of either pool in use. The release of a failed open wakes the poller [D6],
         * whose pass borrows a catalog connection for a moment, so this polls the counts for up to
         * 10 s; a connection an open kept is never given back and fails the bound.
         */
        void assertIdle(String after) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // One reading of both counts is asserted: a later pass may borrow again between two readings.
            int dataInUse = data.getActiveConnections();
            int catalogInUse = catalog.getActiveConnections();
            while ((dataInUse != 0 || catalogInUse != 0) && System.nanoTime() - deadline < 0) {
                Tables.pause(Duration.ofMillis(10));
                dataInUse = data.getActiveConnections();
                catalogInUse = catalog.getActiveConnections();
            }
            assertThat(dataInUse)
                    .as("[S5] pools back to idle after a failed open (%s): data pool connections in use", after)
                    .isZero();
            assertThat(catalogInUse)
                    .as("[S5] pools back to idle after a failed open (%s): catalog pool connections in use", after)
                    .isZero();
        }
    }

    // D7: five held snapshots on a ten-connection pool leave GetItem, DescribeTable and DeleteTable
    // answering; the sixth open is LimitExceeded at once; an open succeeds after one is closed.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void d7_fiveHeldSnapshotsLeaveRequestsAnsweringAndTheSixthIsRefused(Layout layout) throws Exception {
        // Pages of two rows: each held stream has items left after its first page.
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withPoolSizes(10, 10)
                .withPageBudget(new PageBudget(2, 1 << 20)))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 20);
            String other = Tables.uniqueName("other");
            Tables.createActive(tables, Tables.hashOnly(other));
            List<TableSnapshot> held = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name);
                    assertThat(s.items().hasNext()).isTrue();
                    held.add(s);
                }
                assertThat(storage.snapshotPermits().inUse()).isEqualTo(5);
                long start = System.nanoTime();
                StorageException sixth = catchThrowableOfType(StorageException.class,
                        () -> storage.snapshots().openTableSnapshot(ACCOUNT, name));
                assertThat(sixth.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));

                start = System.nanoTime();
                assertThat(tables.getItem(ACCOUNT, name, RequestKey.of("pk", AttributeValue.s("p1"), "sk", AttributeValue.n("1")))).isPresent();
                assertThat(tables.describeTable(ACCOUNT, name).status()).isEqualTo(TableStatus.ACTIVE);
                tables.putItem(ACCOUNT, other, Tables.hashItem("x"));
                assertThat(tables.deleteTable(ACCOUNT, other).status()).isEqualTo(TableStatus.DELETING);
                Duration answered = Duration.ofNanos(System.nanoTime() - start);
                // The pool timeout is 10 s: a request waiting for a connection would take that long.
                assertThat(answered).as("requests with five snapshots held").isLessThan(Duration.ofSeconds(3));

                held.remove(0).close();
                try (TableSnapshot again = storage.snapshots().openTableSnapshot(ACCOUNT, name)) {
                    assertThat(again.items().hasNext()).isTrue();
                }
            } finally {
                held.forEach(TableSnapshot::close);
            }
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }

    // P3, S1, S3: the marker is pg_current_snapshot() text; items ordered by KeyOrder; pages bounded
    // by rows and bytes, one FETCH per round trip.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void p3_markerIsTheCurrentSnapshotAndPagesAreBoundedByBytes(Layout layout) {
        PauseObserver counter = new PauseObserver(PausePoint.BEFORE_ITEMS);
        counter.release();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout)
                .withPageBudget(new PageBudget(1000, 300)).withObserver(counter))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 40);
            long before = counter.roundTrips();
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name)) {
                assertThat(s.info().kind()).isEqualTo(PostgresSnapshots.KIND);
                assertThat(s.info().marker()).matches("[0-9a-f]{32}@\\d+:\\d+:[\\d,]*");
                assertThat(s.keyOrdered()).isTrue();
                List<StoredItem> items = new ArrayList<>();
                s.items().forEachRemaining(items::add);
                assertThat(items).hasSize(40);
                KeyOrder order = KeyOrder.resolve(s.description().keySchema(), s.description().attributeDefinitions())
                        .ordered().orElseThrow();
                for (int i = 1; i < items.size(); i++) {
                    assertThat(order.compareItems(items.get(i - 1).item(), items.get(i).item())).isNegative();
                }
                // Items are ~85 characters: after the first FETCH, each asks for about one 300-byte page.
                assertThat(counter.roundTrips() - before).isGreaterThanOrEqualTo(5);
                assertThat(s.items().isReleased()).isTrue();
            }
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }

    // P1: on the shared layout the open holds no row lock; a DeleteTable that drops the relations
    // between the open's snapshot and its LOCK TABLE makes the open TableNotFound, permit returned.
    @Test
    void p1_sharedTableDroppedBeforeTheOpensLockIsTableNotFound() throws Exception {
        PauseObserver pause = new PauseObserver(PausePoint.AFTER_DEFINITION);
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED).withObserver(pause))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 5);
            TableDescription d = tables.describeTable(ACCOUNT, name);
            Future<TableSnapshot> opening = threads.submit(() -> storage.snapshots().openTableSnapshot(ACCOUNT, name));
            assertThat(pause.awaitReached(Duration.ofSeconds(30))).isTrue();
            // Nothing holds the relations yet (the open has read the definition, not locked): dropped at once.
            tables.deleteTable(ACCOUNT, name);
            assertThat(Tables.exists(tables, name)).isFalse();
            assertThat(Sessions.relationsOf(databases, Layout.SHARED, d.tableId())).isEmpty();
            pause.release();
            Throwable failure = catchThrowableOfType(java.util.concurrent.ExecutionException.class,
                    () -> opening.get(30, TimeUnit.SECONDS)).getCause();
            assertThat(failure).isInstanceOf(StorageException.class);
            assertThat(((StorageException) failure).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }

    // P1, P2, P6: an open paused at BeforeItems has locked the relations (LOCK TABLE ... ACCESS SHARE)
    // but not yet declared its cursor: nothing else of it holds them. A DeleteTable then finds the
    // open's lock in its probe and defers at once with the row and every relation kept; the open
    // resumes and streams every item; its release wakes the poller, which drops the table.
    // Mutants run by hand: no shared-layout LOCK TABLE ... ACCESS SHARE in the open -> fails "table row
    // kept while the open holds its LOCK" on the shared layout (the DeleteTable dropped synchronously);
    // the separate layout, which keeps its LOCK under that mutant, passes.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void p1_anOpenPausedAfterItsLockSendsDeleteTableDownTheDeferredPath(Layout layout) throws Exception {
        PauseObserver pause = new PauseObserver(PausePoint.BEFORE_ITEMS);
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withObserver(pause))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 5);
            TableDescription d = tables.describeTable(ACCOUNT, name);
            Future<TableSnapshot> opening = threads.submit(() -> storage.snapshots().openTableSnapshot(ACCOUNT, name));
            try {
                assertThat(pause.awaitReached(Duration.ofSeconds(30))).isTrue();
                long start = System.nanoTime();
                assertThat(tables.deleteTable(ACCOUNT, name).status()).isEqualTo(TableStatus.DELETING);
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(Tables.exists(tables, name)).as("table row kept while the open holds its LOCK").isTrue();
                assertThat(tables.describeTable(ACCOUNT, name).status()).isEqualTo(TableStatus.DELETING);
                assertThat(Sessions.relationsOf(databases, layout, d.tableId())).hasSize(3);
                assertThat(storage.locks().holders(ACCOUNT, name)).isNotEmpty();
                // Deferred by the probe, not by a DROP waiting out the 1 s budget.
                assertThat(took).as("DeleteTable with an open paused at BeforeItems").isLessThan(Duration.ofMillis(900));
            } finally {
                pause.release();
            }
            try (TableSnapshot s = opening.get(30, TimeUnit.SECONDS)) {
                List<StoredItem> items = new ArrayList<>();
                s.items().forEachRemaining(items::add);
                assertThat(items).hasSize(5);
            }
            assertThat(Tables.awaitGone(tables, name, Duration.ofSeconds(30))).as("gone after the stream's release")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(Sessions.relationsOf(databases, layout, d.tableId())).isEmpty();
        }
    }

    // P2, L4: a read-only opening of the separate layout cannot hold the row FOR SHARE (a row lock is a
    // write), so its open reads the row's catalog version again once the data snapshot is pinned. An
    // UpdateTable committed between the definition read and the pin makes the open Transient, naming the
    // table, with its permit and connections given back; the next open sees the new index.
    // Mutant run by hand: the pin's row check removed -> fails "[P2] the read-only open refuses a table
    // changed before its pin" (the open succeeded with the definition it read before the UpdateTable).
    @Test
    void p2_aReadOnlySeparateOpenRefusesATableChangedBeforeItsPin() throws Exception {
        PauseObserver pause = new PauseObserver(PausePoint.AFTER_DEFINITION);
        try (PostgresStorage writer = PostgresStorage.open(databases.undelayed(Layout.SEPARATE));
             PostgresStorage reader = PostgresStorage.openReadOnly(databases.undelayed(Layout.SEPARATE).withObserver(pause))) {
            TableOperations tables = writer.tables();
            String name = filled(tables, 5);
            Future<TableSnapshot> opening = threads.submit(() -> reader.snapshots().openTableSnapshot(ACCOUNT, name));
            try {
                assertThat(pause.awaitReached(Duration.ofSeconds(30))).isTrue();
                // The paused read-only open holds no row lock: the UpdateTable commits without waiting for it.
                tables.addGlobalSecondaryIndex(ACCOUNT, name, dev.stillpoint.domain.table.CreateGsiRequest.of(
                        dev.stillpoint.domain.table.GlobalSecondaryIndex.creating("by_l2",
                                dev.stillpoint.domain.key.KeySchema.hashOnly("l"),
                                dev.stillpoint.domain.table.Projection.keysOnly()),
                        new dev.stillpoint.domain.key.AttributeDefinition("l", dev.stillpoint.domain.key.ScalarType.S)));
            } finally {
                pause.release();
            }
            Throwable failure = catchThrowableOfType(java.util.concurrent.ExecutionException.class,
                    () -> opening.get(30, TimeUnit.SECONDS));
            assertThat(failure).as("[P2] the read-only open refuses a table changed before its pin").isNotNull();
            assertThat(failure.getCause()).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                assertThat(e.getMessage()).contains("'" + name + "'").contains("changed while its snapshot opened");
            });
            assertThat(reader.snapshotPermits().inUse()).as("[S5] permit back after the refused open").isZero();
            try (TableSnapshot again = reader.snapshots().openTableSnapshot(ACCOUNT, name)) {
                assertThat(again.description().gsi("by_l2")).as("the next open sees the new index").isPresent();
            }
        }
    }

    // P2: on the separate layout the open holds the row FOR SHARE from its definition read until its
    // data transaction is pinned: a DeleteTable started meanwhile waits for it, then finds the stream
    // holding the relations and defers with the row kept.
    // Mutants run by hand: no FOR SHARE on the separate layout -> fails "DeleteTable waits on the row
    // lock while the open is paused" (no row-lock waiter within 30 s); the kit's
    // k2_pauseAfterDefinitionSeesOneInstant fails too (PostgresSeparateConformanceProperties).
    @Test
    void p2_separateOpenHoldsTheRowSoDeleteTableWaitsThenDefers() throws Exception {
        PauseObserver pause = new PauseObserver(PausePoint.AFTER_DEFINITION);
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SEPARATE).withObserver(pause))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 5);
            Future<TableSnapshot> opening = threads.submit(() -> storage.snapshots().openTableSnapshot(ACCOUNT, name));
            assertThat(pause.awaitReached(Duration.ofSeconds(30))).isTrue();
            CompletableFuture<TableDescription> deleting = CompletableFuture.supplyAsync(
                    () -> tables.deleteTable(ACCOUNT, name), threads);
            // The delete waits on the row lock, not on a relation, for as long as the open is held.
            assertThat(awaitRowLockWaiter(Duration.ofSeconds(30))).as("DeleteTable waits on the row lock while the open is paused")
                    .isTrue();
            assertThat(deleting).isNotDone();
            pause.release();
            try (TableSnapshot s = opening.get(30, TimeUnit.SECONDS)) {
                TableDescription d = deleting.get(30, TimeUnit.SECONDS);
                assertThat(d.status()).isEqualTo(TableStatus.DELETING);
                assertThat(tables.describeTable(ACCOUNT, name).status()).isEqualTo(TableStatus.DELETING);
                List<StoredItem> items = new ArrayList<>();
                s.items().forEachRemaining(items::add);
                assertThat(items).hasSize(5);
            }
            Tables.awaitGone(tables, name, Duration.ofSeconds(10));
        }
    }

    private static boolean awaitRowLockWaiter(Duration deadline) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        try (Connection c = databases.catalogDatabase(Layout.SEPARATE).connect(); Statement s = c.createStatement()) {
            while (System.nanoTime() - end < 0) {
                try (var rs = s.executeQuery("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype IN ('transactionid', 'tuple')")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return true;
                    }
                }
                Tables.pause(Duration.ofMillis(5));
            }
        }
        return false;
    }

    // P4: a relation whose text key column keeps another collation than "C" streams unordered, complete,
    // with a warning, and the cursor has no ORDER BY (never a sort of the whole table).
    @ParameterizedTest
    @EnumSource(Layout.class)
    void p4_legacyCollatedKeyColumnsStreamUnordered(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 30);
            String relation = "d_" + tables.describeTable(ACCOUNT, name).tableId();
            try (Connection c = databases.dataSession(layout); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE " + relation + " ALTER COLUMN pk TYPE text COLLATE \"default\"");
            }
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name)) {
                assertThat(s.keyOrdered()).isFalse();
                List<StoredItem> items = new ArrayList<>();
                s.items().forEachRemaining(items::add);
                assertThat(items).hasSize(30);
            }
        }
    }

    // S6, D6: a row the stream cannot read ends the stream with a StorageException, and the permit
    // and the transaction go back at once.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void s6_anUnreadableRowEndsTheStreamAndFreesThePermit(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withPageBudget(new PageBudget(3, 1 << 20)))) {
            TableOperations tables = storage.tables();
            String name = filled(tables, 10);
            String relation = "d_" + tables.describeTable(ACCOUNT, name).tableId();
            try (Connection c = databases.dataSession(layout); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE " + relation + " ALTER COLUMN item DROP NOT NULL");
                st.execute("INSERT INTO " + relation + " (pk, sk, item) VALUES ('p2', 5.5, NULL)");
            }
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name)) {
                int read = 0;
                StorageException failure = null;
                try {
                    while (s.items().hasNext()) {
                        s.items().next();
                        read++;
                    }
                } catch (StorageException e) {
                    failure = e;
                }
                assertThat(failure).as("the unreadable row ends the stream").isNotNull();
                assertThat(failure.reason()).isEqualTo(ErrorReason.INTERNAL);
                assertThat(read).isLessThan(11);
                assertThat(s.items().isReleased()).isTrue();
                assertThat(s.items().hasNext()).isFalse();
                assertThat(storage.snapshotPermits().inUse()).isZero();
            }
        }
    }
}

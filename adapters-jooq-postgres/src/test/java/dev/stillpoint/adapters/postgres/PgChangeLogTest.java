package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.engine.PgChangeLog;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.ports.in.ChangeSink;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.TableChanges;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.ReadObserver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The PostgreSQL change log's window is exact under concurrency [I2]: a transaction's xid is taken when it
 * first writes, not when it commits, so a writer T1 that took its xid before T2 may commit after T2 and
 * after the snapshot A. The window (A, B] must hold T1's change (not visible in A) and not T2's (visible
 * in A), whichever xid is larger. Markers that start no window are refused by name [I4].
 */
class PgChangeLogTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("changes");

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @ParameterizedTest
    @EnumSource(Layout.class)
    void i2_aWriterCommittingAfterTheMarkerWithAnOlderXidIsInTheWindow(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout));
             Connection blocker = databases.dataSession(layout);
             Connection watcher = databases.dataSession(layout)) {
            TableOperations tables = storage.tables();
            String logged = Tables.uniqueName("logged");
            String other = Tables.uniqueName("other");
            Tables.createActive(tables, CreateTableRequest.builder(ACCOUNT, logged).partitionKey("pk", ScalarType.S)
                    .changeLog(ChangeLog.NEW_AND_OLD_IMAGES).build());
            Tables.createActive(tables, Tables.hashOnly(other));
            tables.putItem(ACCOUNT, logged, item("k0", "before"));
            tables.putItem(ACCOUNT, logged, item("k3", "before"));
            tables.putItem(ACCOUNT, logged, item("k4", "before"));
            String otherBase = relationOf(layout, other);

            // The blocker holds the other table SHARE, taking no xid: T1's batch writes the logged table
            // first (its xid is taken there), then waits at the other table's relation, still open.
            blocker.setAutoCommit(false);
            try (Statement s = blocker.createStatement()) {
                s.execute("LOCK TABLE \"" + otherBase + "\" IN SHARE MODE");
            }
            Map<String, List<WriteRequest>> batch = new LinkedHashMap<>();
            batch.put(logged, List.of(new WriteRequest.Put(item("k0", "t1")), new WriteRequest.Put(item("k1", "t1")),
                    new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("k4")))));
            batch.put(other, List.of(new WriteRequest.Put(Tables.hashItem("o"))));
            CompletableFuture<?> t1 = CompletableFuture.runAsync(() -> tables.batchWriteItem(ACCOUNT, batch));
            long xid1 = awaitWaitingWriterXid(watcher);

            // T2 takes its xid after T1's and commits before T1: visible in A, so not in the window.
            tables.putItem(ACCOUNT, logged, item("k2", "t2"));
            tables.deleteItem(ACCOUNT, logged, RequestKey.of("pk", AttributeValue.s("k3")));
            Map<String, Item> a = new HashMap<>();
            String markerA = snapshot(storage, logged, a);
            assertThat(a.keySet()).as("T2's writes committed before A; T1's did not").containsExactlyInAnyOrder("k0", "k2", "k4");

            blocker.rollback();
            t1.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            long xid2 = changeXid(watcher, relationOf(layout, logged), "k2");
            assertThat(xid1).as("the premise: T1 took its xid before T2, and committed after it").isLessThan(xid2);

            TableChanges changes = storage.changeLog().changesSince(ACCOUNT, logged, markerA);
            Map<String, LoggedChange> byKey = new HashMap<>();
            changes.changes().forEach(c -> byKey.put(((AttributeValue.S) c.keys().get("pk")).value(), c));
            assertThat(byKey.keySet()).as("[I2] exactly T1's keys: its changes are not visible in A, T2's are")
                    .containsExactlyInAnyOrder("k0", "k1", "k4");
            assertThat(byKey.get("k0").newImage()).as("[I2] T1's overwrite of k0").contains(item("k0", "t1"));
            assertThat(byKey.get("k0").oldImage()).as("[I1] k0 at A").contains(item("k0", "before"));
            assertThat(byKey.get("k1").oldImage()).as("[I1] k1 had no item at A").isEmpty();
            assertThat(byKey.get("k4").tombstone()).as("[I2] T1's delete of k4 is a tombstone").isTrue();
            assertThat(byKey.get("k4").oldImage()).as("[I2] the tombstone of k4 holds its old image")
                    .contains(item("k4", "before"));
            Map<String, Item> b = new HashMap<>();
            snapshot(storage, logged, b);
            Map<String, Item> replayed = new HashMap<>(a);
            changes.changes().forEach(c -> {
                String key = ((AttributeValue.S) c.keys().get("pk")).value();
                c.newImage().ifPresentOrElse(i -> replayed.put(key, i), () -> replayed.remove(key));
            });
            assertThat(replayed).as("[I2] full(A) + changes(A, B) == full(B)").isEqualTo(b);
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void i4_markersThatStartNoWindowAreRefusedByName(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableOperations tables = storage.tables();
            String logged = Tables.uniqueName("logged");
            String plain = Tables.uniqueName("plain");
            Tables.createActive(tables, CreateTableRequest.builder(ACCOUNT, logged).partitionKey("pk", ScalarType.S)
                    .changeLog(ChangeLog.NEW_IMAGE).build());
            Tables.createActive(tables, Tables.hashOnly(plain));
            tables.putItem(ACCOUNT, logged, item("k", "v"));
            String marker = snapshot(storage, logged, new HashMap<>());
            String tableId = marker.substring(0, marker.indexOf('@'));
            String snapshotText = marker.substring(marker.indexOf('@') + 1);
            long xmax = Long.parseLong(snapshotText.split(":")[1]);

            refused(storage, logged, snapshotText, "is not a PostgreSQL snapshot marker");
            refused(storage, logged, tableId + "@" + (xmax + 1000) + ":" + (xmax + 1000) + ":", "is later than");
            refused(storage, logged, tableId + "@10:5:", "holds no PostgreSQL snapshot");
            // The table's log began in its creating transaction: a snapshot from before it does not see it.
            refused(storage, logged, tableId + "@3:3:", "is older than the change log");
            String plainMarker = snapshot(storage, plain, new HashMap<>());
            assertThatThrownBy(() -> storage.changeLog().changesSince(ACCOUNT, plain, plainMarker))
                    .isInstanceOf(StorageException.class).hasMessageContaining("keeps no change log");
        }
    }

    // S7 [I2]: a window of large changes is read in fetches of about a page's bytes, not of a fixed row count.
    // Found from outside: 500 rows a fetch, and `export --since` of 250 overwrites of 300 KB items (each row a
    // new and an old image) ran out of a 64 MiB heap ("Ran out of memory retrieving query results"). The
    // storage's read observer counts the window's fetches.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void s7_aWindowOfLargeChangesIsReadInFetchesOfAboutAPagesBytes(Layout layout) throws Exception {
        AtomicInteger fetches = new AtomicInteger();
        ReadObserver counting = new ReadObserver() {
            @Override
            public void roundTrip() {
                fetches.incrementAndGet();
            }
        };
        int keys = 60;
        int padChars = 300_000;
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withObserver(counting))) {
            String logged = Tables.uniqueName("large");
            Tables.createActive(storage.tables(), CreateTableRequest.builder(ACCOUNT, logged)
                    .partitionKey("pk", ScalarType.S).changeLog(ChangeLog.NEW_AND_OLD_IMAGES).build());
            for (int i = 0; i < keys; i++) {
                storage.tables().putItem(ACCOUNT, logged, item("k" + i, "a".repeat(padChars)));
            }
            String markerA = snapshot(storage, logged, new HashMap<>());
            for (int i = 0; i < keys; i++) {
                storage.tables().putItem(ACCOUNT, logged, item("k" + i, "b".repeat(padChars)));
            }

            fetches.set(0);
            AtomicInteger changes = new AtomicInteger();
            storage.changeLog().streamChanges(ACCOUNT, logged, markerA, new ChangeSink() {
                @Override
                public void begin(ChangeWindow window) {
                }

                @Override
                public void change(LoggedChange change) {
                    assertThat(change.oldImage()).as("[I1] the old image of %s", change.keys()).isPresent();
                    changes.incrementAndGet();
                }
            });

            assertThat(changes.get()).as("[I2] one change per key overwritten").isEqualTo(keys);
            long rowBytes = 2L * padChars;
            long fewest = 1 + (keys - 16) * rowBytes / (PgChangeLog.FETCH_BYTES + rowBytes);
            assertThat(fetches.get()).as("[S7] fetches of %d rows of %d bytes each, a fetch holding about %d bytes",
                    keys, rowBytes, PgChangeLog.FETCH_BYTES).isGreaterThanOrEqualTo((int) fewest);
        }
    }

    private static void refused(PostgresStorage storage, String table, String marker, String why) {
        assertThatThrownBy(() -> storage.changeLog().changesSince(ACCOUNT, table, marker))
                .as("[I4] marker %s", marker)
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("'" + marker + "'")
                .hasMessageContaining(why)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION));
    }

    private static Item item(String pk, String v) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "v", AttributeValue.s(v)));
    }

    private static String snapshot(PostgresStorage storage, String table, Map<String, Item> into) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            s.items().forEachRemaining(i -> into.put(((AttributeValue.S) i.item().get("pk")).value(), i.item()));
            return s.info().marker();
        }
    }

    /** The base relation of {@code table}, from its catalog row. */
    private static String relationOf(Layout layout, String table) throws SQLException {
        try (Connection c = databases.catalogDatabase(layout).connect();
             PreparedStatement s = c.prepareStatement("SELECT relation_name FROM sp_tables WHERE table_name = ?")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).as("catalog row of %s", table).isTrue();
                return rs.getString(1);
            }
        }
    }

    /** The xid of the writer waiting on a lock in the data database, once it waits (within the deadline). */
    private static long awaitWaitingWriterXid(Connection watcher) throws SQLException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            try (Statement s = watcher.createStatement();
                 ResultSet rs = s.executeQuery("SELECT backend_xid::text FROM pg_stat_activity WHERE datname ="
                         + " current_database() AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL")) {
                if (rs.next()) {
                    return Long.parseLong(rs.getString(1));
                }
            }
            assertThat(System.nanoTime()).as("T1 waits on the blocker within %s", DEADLINE).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** The xid recorded with the change of key {@code pk} (its only one). */
    private static long changeXid(Connection data, String base, String pk) throws SQLException {
        try (PreparedStatement s = data.prepareStatement("SELECT xid::text FROM \"" + base + "__chg__0\" WHERE pk = ?")) {
            s.setString(1, pk);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).as("a change of %s", pk).isTrue();
                return Long.parseLong(rs.getString(1));
            }
        }
    }
}

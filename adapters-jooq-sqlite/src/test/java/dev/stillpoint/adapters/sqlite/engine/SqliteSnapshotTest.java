package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.ACCOUNT;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.awaitActive;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.item;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * SQLite's own snapshot behaviour beyond the kit [Q1-Q5]: slots, the in-memory copy, the rowid
 * fallback, the WAL while a snapshot is held, and DeleteTable of a DELETING table.
 * Each test names the mutant it targets, and says whether it was run by hand.
 */
class SqliteSnapshotTest {

    static final class CountingObserver implements ReadObserver {
        final AtomicInteger roundTrips = new AtomicInteger();

        @Override
        public void roundTrip() {
            roundTrips.incrementAndGet();
        }
    }

    private static SqliteStorage fileStorage(String label, PageBudget budget, ReadObserver observer) {
        return SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile(label)).withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(budget).withObserver(observer).withPool(4, 2));
    }

    private static void load(SqliteStorage storage, String table, int n) throws InterruptedException {
        storage.tables().createTable(orders(table));
        awaitActive(storage, table);
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, table, item("p" + (i % 7), Integer.toString(i), "v" + i));
        }
    }

    // Q2: a slot per open stream; none free -> LimitExceeded at once, naming snapshots as the holders;
    // the slot comes back when the stream sees its end, at its first error, or on close.
    // Mutant run by hand: END_SEEN applied only on an empty page (slot kept past the short page) ->
    // the drain loop below fails with NoSuchElementException (released one fetch too late).
    @Test
    void q2_slotsBoundOpenStreamsAndComeBackAtTheEnd() throws Exception {
        try (SqliteStorage storage = fileStorage("slots", new PageBudget(10, 1 << 20), ReadObserver.NONE)) {
            load(storage, "orders", 25);
            TableSnapshot first = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            TableSnapshot second = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            long start = System.nanoTime();
            assertThatThrownBy(() -> storage.snapshots().openTableSnapshot(ACCOUNT, "orders"))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED))
                    .hasMessageContaining("2 held by table snapshots");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused at once").isLessThan(Duration.ofSeconds(2));
            // Drained: the short page ends the transaction and returns the slot before the last items are read.
            List<StoredItem> drained = new ArrayList<>();
            while (!first.items().isReleased()) {
                drained.add(first.items().next());
            }
            assertThat(storage.snapshotPermits().inUse()).isEqualTo(1);
            first.items().forEachRemaining(drained::add);
            assertThat(drained).hasSize(25);
            second.close();
            assertThat(storage.snapshotPermits().inUse()).isZero();
            // Slots are shared with backups: a backup holding one leaves one for snapshots.
            storage.snapshotPermits().acquire(HolderKind.BACKUP);
            try (TableSnapshot third = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                assertThatThrownBy(() -> storage.snapshots().openTableSnapshot(ACCOUNT, "orders"))
                        .hasMessageContaining("1 held by backups").hasMessageContaining("1 held by table snapshots");
                assertThat(third.items().hasNext()).isTrue();
            } finally {
                storage.snapshotPermits().release(HolderKind.BACKUP);
            }
        }
    }

    // Q2, S6: a stream whose page read fails returns its slot at the error, and yields nothing after.
    // The failure is injected at the page's round trip (the hook the kit counts with), inside nextPage.
    // Mutant targeted (not run by hand): Lease.fetch not applying FAILED -> `inUse()` stays 1 and this fails.
    @Test
    void q2_aFailedPageReturnsTheSlot() throws Exception {
        AtomicInteger trips = new AtomicInteger();
        ReadObserver failSecondPage = new ReadObserver() {
            @Override
            public void roundTrip() {
                if (trips.incrementAndGet() == 2) {
                    throw new StorageException(ErrorReason.INTERNAL, "injected page failure");
                }
            }
        };
        try (SqliteStorage storage = fileStorage("failing", new PageBudget(5, 1 << 20), failSecondPage)) {
            load(storage, "orders", 12);
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                int read = 0;
                Throwable thrown = null;
                try {
                    while (s.items().hasNext()) {
                        s.items().next();
                        read++;
                    }
                } catch (StorageException e) {
                    thrown = e;
                }
                assertThat(thrown).hasMessageContaining("injected page failure");
                assertThat(read).isEqualTo(5);
                assertThat(s.items().isReleased()).isTrue();
                assertThat(storage.snapshotPermits().inUse()).isZero();
                assertThat(s.items().hasNext()).isFalse();
            }
        }
    }

    // Q4: an in-memory database copies the table inside the open: the stream holds no connection,
    // so writes go on while it is open, and the copy keeps its slot until its last item or close.
    // Mutants targeted (not run by hand): the copy returning its slot at the open -> `inUse() == 1`
    // while open fails; pages() streaming the live table instead of the copy -> the put below waits on
    // the one connection until the acquire timeout and fails with Transient.
    @Test
    void q4_inMemoryCopyHoldsNoConnectionButKeepsItsSlot() throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.inMemory().withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(4, 1 << 20)))) {
            load(storage, "orders", 10);
            TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            assertThat(storage.snapshotPermits().inUse()).isEqualTo(1);
            storage.tables().putItem(ACCOUNT, "orders", item("new", "1", "written while the copy is open"));
            List<StoredItem> items = new ArrayList<>();
            snapshot.items().forEachRemaining(items::add);
            assertThat(items).hasSize(10);
            assertThat(storage.snapshotPermits().inUse()).isZero();
            snapshot.close();
            // Slots bound how many copies exist.
            TableSnapshot a = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            TableSnapshot b = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
            assertThatThrownBy(() -> storage.snapshots().openTableSnapshot(ACCOUNT, "orders"))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.LIMIT_EXCEEDED));
            a.close();
            b.close();
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }

    // D1, Q3: a table whose key attribute lost its definition streams by rowid, complete, unordered.
    // Mutant targeted (not run by hand): rowid `>=` instead of `>` -> duplicates at every page
    // boundary: `hasSize(40)` and the no-duplicates assertion fail.
    @Test
    void q3_unorderableKeyStreamsByRowidCompleteAndUnordered() throws Exception {
        Path file = TestDatabases.newFile("rowid");
        CountingObserver counter = new CountingObserver();
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(7, 1 << 20)).withObserver(counter).withPool(4, 2))) {
            load(storage, "orders", 40);
            try (Connection c = TestDatabases.openFile(file); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE sp_tables SET attribute_definitions_json = '{\"pk\":{\"S\":\"S\"}}'");
            }
            int before = counter.roundTrips.get();
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                assertThat(s.keyOrdered()).isFalse();
                Set<String> seen = new HashSet<>();
                List<StoredItem> items = new ArrayList<>();
                s.items().forEachRemaining(items::add);
                items.forEach(i -> seen.add(i.json()));
                assertThat(items).hasSize(40);
                assertThat(seen).as("no duplicates").hasSize(40);
            }
            assertThat(counter.roundTrips.get() - before).as("pages of 7").isGreaterThanOrEqualTo(6);
        }
    }

    // E1, S4: on keyset pages and on rowid pages alike, every item comes with its own row's stored key
    // (not a neighbour's, not pk and sk swapped), and its text, read as UTF-8 bytes, is the item put,
    // characters outside Latin-1 and a surrogate pair included.
    // A reader that leaves the stored keys out gets the same items in the same order and no keys.
    // Mutants run by hand: StoredJson.read given pk and sk swapped on rowid pages -> the "own row's
    // key" assertion fails; the same on keyset pages -> the items assertion fails (the next page
    // starts after the wrong key).
    @Test
    void e1_everyItemCarriesItsOwnRowsKeyOnKeysetAndRowidPages() throws Exception {
        Path file = TestDatabases.newFile("stored-keys");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(4, 1 << 20)).withPool(4, 2))) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            List<Item> put = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                put.add(item("p" + (i % 3), Integer.toString(i), "v" + i + " \u00e9\u20ac\ud83d\ude00"));
                storage.tables().putItem(ACCOUNT, "orders", put.get(i));
            }
            assertEveryItemCarriesItsRowsKey(storage, put);
            try (Connection c = TestDatabases.openFile(file); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE sp_tables SET attribute_definitions_json = '{\"pk\":{\"S\":\"S\"}}'");
            }
            assertEveryItemCarriesItsRowsKey(storage, put);
        }
    }

    private static void assertEveryItemCarriesItsRowsKey(SqliteStorage storage, List<Item> put) {
        KeySchema schema = KeySchema.composite("pk", "sk");
        List<StoredItem> items = new ArrayList<>();
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders", StoredKeys.INCLUDED)) {
            s.items().forEachRemaining(items::add);
            assertThat(items).extracting(StoredItem::item).containsExactlyInAnyOrderElementsOf(put);
            for (StoredItem stored : items) {
                Key own = Key.of(stored.item(), schema);
                assertThat(stored.storedKey()).as("own row's key of " + stored.json())
                        .hasValueSatisfying(k -> assertThat(k.matches(own)).isTrue());
                Key swapped = Key.of(own.sort().orElseThrow(), own.partition());
                assertThat(stored.storedKey().orElseThrow().matches(swapped)).as("not its key swapped").isFalse();
            }
        }
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
            List<StoredItem> omitted = new ArrayList<>();
            s.items().forEachRemaining(omitted::add);
            assertThat(omitted).as("the same items in the same order, keys omitted")
                    .extracting(StoredItem::json).containsExactlyElementsOf(items.stream().map(StoredItem::json).toList());
            assertThat(omitted).as("no stored key when omitted").allSatisfy(i -> assertThat(i.storedKey()).isEmpty());
        }
    }

    // Q1: while a snapshot holds its read transaction, a TRUNCATE checkpoint reports busy and the
    // WAL grows with every write; once the stream ends the checkpoint truncates it. Measured figures
    // are printed for ARCHITECTURE.md.
    @Test
    void q1_walGrowsWhileASnapshotIsHeldAndTruncatesAfter() throws Exception {
        Path file = TestDatabases.newFile("wal");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO)
                .withPageBudget(new PageBudget(10, 1 << 20)).withPool(4, 2))) {
            load(storage, "orders", 100);
            Path wal = Path.of(file + "-wal");
            try (Connection c = TestDatabases.openFile(file)) {
                checkpoint(c);
                long walBefore = Files.size(wal);
                TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders");
                s.items().next();
                for (int i = 0; i < 2000; i++) {
                    storage.tables().putItem(ACCOUNT, "orders", item("w", Integer.toString(i), "x".repeat(200)));
                }
                int[] held = checkpoint(c);
                long walHeld = Files.size(wal);
                assertThat(held[0]).as("busy while the snapshot is held").isEqualTo(1);
                assertThat(walHeld).isGreaterThan(walBefore + 200_000);
                s.close();
                int[] after = checkpoint(c);
                long walAfter = Files.size(wal);
                assertThat(after[0]).as("not busy after the release").isZero();
                assertThat(walAfter).isZero();
                System.out.printf("Q1 WAL: before %d B; with a snapshot held and 2000 writes %d B, "
                        + "wal_checkpoint(TRUNCATE) = (busy %d, log %d, checkpointed %d); after release (%d, %d, %d), %d B%n",
                        walBefore, walHeld, held[0], held[1], held[2], after[0], after[1], after[2], walAfter);
            }
        }
    }

    private static int[] checkpoint(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            rs.next();
            return new int[] {rs.getInt(1), rs.getInt(2), rs.getInt(3)};
        }
    }

    // S4: the stream hands the item column's bytes over as the driver returns them. Rows another client
    // wrote (as `sqlite3` would) with malformed UTF-8 inside a string (a lone continuation byte, an
    // encoded surrogate, a truncated sequence): storedBytes() are those bytes, json() refuses them
    // (they are not text; it used to read them as U+FFFD), and item() decodes them as the JDK decoder
    // reads them, each malformed sequence one U+FFFD (ItemJson.decodeUtf8's documented reading). A raw
    // control byte, well-formed UTF-8, is text, and item() refuses it at its position.
    // Mutant run by hand: StoredUtf8.item() decoding `new String(utf8, ISO_8859_1)` -> the equality
    // with the leniently decoded text's item fails (Latin-1 characters instead of U+FFFD).
    @Test
    void s4_bytesAnotherClientWroteDecodeAsTheirText() throws Exception {
        Path file = TestDatabases.newFile("utf8");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            load(storage, "orders", 4);
            // {"pk":{"S":"p0"},"sk":{"S":"0"},"v":{"S":"a<80>b<ED A0 80>c<E2 82>"}} and one with a raw 0x01
            String bad = "7B22706B223A7B2253223A227030227D2C22736B223A7B2253223A2230227D2C2276223A7B2253223A22"
                    + "6180" + "62EDA080" + "63E282" + "227D7D";
            String control = "7B22706B223A7B2253223A227031227D2C22736B223A7B2253223A2231227D2C2276223A7B2253223A22"
                    + "780179" + "227D7D";
            try (Connection c = TestDatabases.openFile(file); Statement st = c.createStatement()) {
                String relation;
                try (ResultSet rs = st.executeQuery("SELECT relation_name FROM sp_tables WHERE table_name = 'orders'")) {
                    rs.next();
                    relation = rs.getString(1);
                }
                st.executeUpdate("UPDATE \"" + relation + "\" SET item = CAST(x'" + bad + "' AS TEXT) WHERE rowid = "
                        + "(SELECT min(rowid) FROM \"" + relation + "\")");
                st.executeUpdate("UPDATE \"" + relation + "\" SET item = CAST(x'" + control + "' AS TEXT) WHERE rowid = "
                        + "(SELECT max(rowid) FROM \"" + relation + "\")");
            }
            int decoded = 0;
            int refused = 0;
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                var items = s.items();
                while (items.hasNext()) {
                    StoredItem stored = items.next();
                    byte[] bytes = stored.storedBytes().orElseThrow();
                    String lenient = new String(bytes, StandardCharsets.UTF_8);
                    if (lenient.contains("\u0001")) {
                        assertThat(stored.json()).isEqualTo(lenient);
                        assertThatThrownBy(stored::item).isInstanceOfSatisfying(StorageException.class, e ->
                                assertThat(e.getMessage()).contains("unescaped control character U+0001", "position 43 "));
                        refused++;
                        continue;
                    }
                    Item item = stored.item();
                    assertThat(item).isEqualTo(ItemJson.decode(lenient));
                    if (lenient.contains("\ufffd")) {
                        assertThat(HexFormat.of().withUpperCase().formatHex(bytes)).isEqualTo(bad);
                        assertThatThrownBy(stored::json).isInstanceOfSatisfying(StorageException.class, e ->
                                assertThat(e.getMessage()).isEqualTo("a stored item's text is not UTF-8: byte 0x80 at offset 43,"
                                        + " after '...k\":{\"S\":\"p0\"},\"sk\":{\"S\":\"0\"},\"v\":{\"S\":\"a'"));
                        assertThat(item.get("v")).isEqualTo(AttributeValue.s(
                                "a\ufffdb\ufffdc\ufffd"));
                    } else {
                        assertThat(stored.json()).isEqualTo(lenient);
                    }
                    decoded++;
                }
            }
            assertThat(decoded).isEqualTo(3);
            assertThat(refused).isEqualTo(1);
        }
    }

    // Q5, D5: with a control-plane delay of a second or more DeleteTable answers DELETING, a second
    // DeleteTable returns the description unchanged, and the poller drops it once due.
    @Test
    void q5_deleteOfADeletingTableReturnsItsDescription() throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile("q5"))
                .withControlPlaneDelay(Duration.ofSeconds(1)))) {
            storage.tables().createTable(orders("orders"));
            awaitActive(storage, "orders");
            assertThat(storage.tables().deleteTable(ACCOUNT, "orders").status()).isEqualTo(TableStatus.DELETING);
            var deleting = storage.tables().describeTable(ACCOUNT, "orders");
            assertThat(deleting.status()).isEqualTo(TableStatus.DELETING);
            assertThat(storage.tables().deleteTable(ACCOUNT, "orders")).isEqualTo(deleting);
            assertThat(storage.tables().listTables(ACCOUNT)).containsExactly("orders");
            assertThatThrownBy(() -> storage.tables().createTable(orders("orders")))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));
            // Gone about a second after the delete; 3 s is the generous bound.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3 + 1);
            Object tick = new Object();
            while (!storage.tables().listTables(ACCOUNT).isEmpty()) {
                assertThat(System.nanoTime()).as("dropped by the poller after its delay").isLessThan(deadline);
                synchronized (tick) {
                    tick.wait(20);
                }
            }
        }
    }
}

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
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.TableChanges;
import dev.stillpoint.ports.in.TableSnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The change log's guarantee on a real SQLite file [I1, I2, I4]: for random interleavings of puts,
 * overwrites and deletes before and inside a window (one key many times), the full snapshot at A plus the
 * changes of (A, B] equals the full snapshot at B, item for item; the old images are the items at A; an
 * empty window is empty; a marker that names no start of this table's log is refused, naming the marker.
 */
class SqliteChangeLogProperties {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static SqliteStorage storage;

    @BeforeContainer
    static void open() {
        file = TestDatabases.newFile("change-log");
        storage = SqliteStorage.open(SqliteConfig.file(file)
                .withControlPlaneDelay(Duration.ZERO).withPool(4, 2));
    }

    @AfterContainer
    static void close() {
        storage.close();
    }

    /** One write: a put of (key, value) or, with value null, a delete of key. Keys from a small set, so they repeat. */
    record Write(int key, String value) {
    }

    @Provide
    Arbitrary<List<Write>> writes() {
        Arbitrary<Write> put = Combinators.combine(Arbitraries.integers().between(0, 7),
                Arbitraries.strings().alpha().ofMaxLength(6)).as(Write::new);
        Arbitrary<Write> delete = Arbitraries.integers().between(0, 7).map(k -> new Write(k, null));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, put), net.jqwik.api.Tuple.of(1, delete))
                .list().ofMaxSize(40);
    }

    // [I2] full(A) + changes(A, B) == full(B), item for item, for any interleaving before and inside the
    // window; the window ends at the marker of a snapshot taken with no write after it.
    // [I1] with NEW_AND_OLD_IMAGES, each change's old image is the key's item at A.
    @Property(tries = 40)
    void i2_fullAtAPlusTheWindowIsFullAtB(@ForAll("writes") List<Write> before, @ForAll("writes") List<Write> inside,
                                          @ForAll ChangeLog setting) throws Exception {
        if (setting == ChangeLog.OFF) {
            return;
        }
        String table = newTable(setting);
        apply(table, before);
        Snapshot a = snapshot(table);
        apply(table, inside);
        TableChanges changes = storage.changeLog().changesSince(ACCOUNT, table, a.marker());
        Snapshot b = snapshot(table);
        assertThat(changes.until().marker()).as("the window ends at the next snapshot's instant").isEqualTo(b.marker());
        assertThat(changes.since().marker()).isEqualTo(a.marker());

        Map<String, Item> replayed = new HashMap<>(a.items());
        for (LoggedChange c : changes.changes()) {
            String key = keyOf(c.keys());
            if (setting.keepsOldImage()) {
                assertThat(c.oldImage()).as("old image of %s is its item at A", key)
                        .isEqualTo(java.util.Optional.ofNullable(a.items().get(key)));
            } else {
                assertThat(c.oldImage()).as("NEW_IMAGE keeps no old image").isEmpty();
            }
            if (c.tombstone()) {
                replayed.remove(key);
            } else {
                replayed.put(key, c.newImage().orElseThrow());
            }
        }
        assertThat(replayed).as("full(A) + changes(A, B) == full(B)").isEqualTo(b.items());
        assertThat(changes.changes()).as("one change per key").extracting(c -> keyOf(c.keys())).doesNotHaveDuplicates();
    }

    // [I2] a window with no writes is empty, and ends where it starts.
    @Example
    void i2_aWindowWithNoWritesIsEmpty() throws Exception {
        String table = newTable(ChangeLog.NEW_IMAGE);
        apply(table, List.of(new Write(1, "x"), new Write(2, "y"), new Write(1, null)));
        String a = snapshot(table).marker();
        TableChanges changes = storage.changeLog().changesSince(ACCOUNT, table, a);
        assertThat(changes.changes()).isEmpty();
        assertThat(changes.until().marker()).isEqualTo(a);
    }

    // [I4] a marker that names no start of this table's log is refused by name, never answered with a gap:
    // another table's, one older than the log, one later than the newest snapshot, one of no known form.
    @Example
    void i4_aMarkerThatStartsNoWindowIsRefusedByName() throws Exception {
        String table = newTable(ChangeLog.NEW_AND_OLD_IMAGES);
        String other = newTable(ChangeLog.NEW_IMAGE);
        apply(table, List.of(new Write(1, "x")));
        String mine = snapshot(table).marker();
        String tableId = mine.substring(0, mine.indexOf('@'));
        long seq = Long.parseLong(mine.substring(mine.indexOf('@') + 1));
        String foreign = snapshot(other).marker();
        refused(table, foreign, "another table");
        refused(table, tableId + "@0", "older than the change log");
        refused(table, tableId + "@" + (seq + 1), "later than the newest snapshot");
        refused(table, "sqlite-wal", "not a SQLite snapshot marker");

        String plain = "plain" + TABLES.incrementAndGet();
        storage.tables().createTable(orders(plain));
        awaitActive(storage, plain);
        String plainMarker = snapshot(plain).marker();
        refused(plain, plainMarker, "keeps no change log");
    }

    // [I1] a change log relation lives and dies with its table: after DeleteTable no d_<id>__chg__0 is left.
    @Example
    void i1_theLogIsDroppedWithTheTable() throws Exception {
        String table = newTable(ChangeLog.NEW_IMAGE);
        apply(table, List.of(new Write(1, "x")));
        String id = storage.tables().describeTable(ACCOUNT, table).tableId();
        assertThat(relations(id)).contains("d_" + id + "__chg__0");
        storage.tables().deleteTable(ACCOUNT, table);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Object tick = new Object();
        while (!relations(id).isEmpty() && System.nanoTime() < deadline) {
            synchronized (tick) {
                tick.wait(5); // a deadline-bounded poll of the file, not a synchronisation
            }
        }
        assertThat(relations(id)).as("relations of the deleted table").isEmpty();
    }

    private static List<String> relations(String tableId) throws Exception {
        try (var c = TestDatabases.openFile(storageFile());
             var s = c.prepareStatement("SELECT name FROM sqlite_master WHERE type = 'table' AND instr(name, ?) = 1")) {
            s.setString(1, "d_" + tableId);
            try (var rs = s.executeQuery()) {
                List<String> out = new java.util.ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }
    }

    private static java.nio.file.Path file;

    private static java.nio.file.Path storageFile() {
        return file;
    }

    private static void refused(String table, String marker, String why) {
        assertThatThrownBy(() -> storage.changeLog().changesSince(ACCOUNT, table, marker))
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining("'" + marker + "'")
                .hasMessageContaining(why);
    }

    private static String newTable(ChangeLog setting) throws InterruptedException {
        String name = "log" + TABLES.incrementAndGet();
        CreateTableRequest request = CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).changeLog(setting).build();
        assertThat(storage.tables().createTable(request).changeLog()).isEqualTo(setting);
        awaitActive(storage, name);
        assertThat(storage.tables().describeTable(ACCOUNT, name).changeLog()).isEqualTo(setting);
        return name;
    }

    private static void apply(String table, List<Write> writes) {
        for (Write w : writes) {
            if (w.value() == null) {
                storage.tables().deleteItem(ACCOUNT, table,
                        RequestKey.of("pk", AttributeValue.s("k" + w.key()), "sk", AttributeValue.N.of("1")));
            } else {
                storage.tables().putItem(ACCOUNT, table, item("k" + w.key(), "1", w.value()));
            }
        }
    }

    record Snapshot(String marker, Map<String, Item> items) {
    }

    private static Snapshot snapshot(String table) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            Map<String, Item> items = new HashMap<>();
            s.items().forEachRemaining(i -> items.put(keyOf(i.item()), i.item()));
            return new Snapshot(s.info().marker(), items);
        }
    }

    private static String keyOf(Item item) {
        return ((AttributeValue.S) item.get("pk")).value();
    }
}

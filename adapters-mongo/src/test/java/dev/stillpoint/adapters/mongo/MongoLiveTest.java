package dev.stillpoint.adapters.mongo;

import static com.mongodb.client.model.Filters.eq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.mongodb.ClientSessionOptions;
import com.mongodb.MongoCommandException;
import com.mongodb.ReadConcern;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.stillpoint.adapters.mongo.testing.MongoServers;
import dev.stillpoint.adapters.mongo.testing.ScratchDatabases;
import dev.stillpoint.adapters.mongo.testing.SnapshotRoundTrips;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.time.Duration;
import dev.stillpoint.ports.out.StorageEvents.WriteKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MongoDB against a live server (replica set from {@code STILLPOINT_TEST_MONGODB_URI}, standalone
 * from {@code STILLPOINT_TEST_MONGODB_STANDALONE_URI}); aborted without one, failed when
 * {@code STILLPOINT_TEST_MONGODB_REQUIRED} is set. Each test has its own scratch databases with
 * random names, dropped afterwards even when it fails.
 *
 * <p>These tests could not be run where they were written (no MongoDB server is obtainable there).
 */
class MongoLiveTest {

    private static final String ACCOUNT = "000000000000";
    private static final Duration ACTIVE_DEADLINE = Duration.ofSeconds(30);

    private ScratchDatabases scratch;
    private final List<AutoCloseable> open = new ArrayList<>();

    /** This test's databases on the replica set, named on first use (the standalone test needs none). */
    private ScratchDatabases scratch() {
        if (scratch == null) {
            scratch = ScratchDatabases.on(MongoServers.replicaSet());
        }
        return scratch;
    }

    @AfterEach
    void dropScratch() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        if (scratch != null) {
            scratch.close();
        }
    }

    private MongoStorage storage(MongoConfig config) {
        MongoStorage storage = MongoStorage.open(config);
        open.add(0, storage);
        return storage;
    }

    // [X1] the MongoDB adapter tells StorageEvents what it does, as SQLite and PostgreSQL do (issue 29): a put,
    // a delete, the poller's passes and a restore's items reach the embedder's watcher.
    // Mutant (not run here: no server where it was written): MongoStorage's StorageCore built without
    // config.events() -> "written PUT ok" never seen.
    @Test
    void x1_writesPassesAndRestoredItemsReachTheEvents() {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.stillpoint.ports.out.StorageEvents events = new dev.stillpoint.ports.out.StorageEvents() {
            @Override
            public void written(WriteKind write, Duration took, boolean failed) {
                seen.add("written " + write + (failed ? " failed" : " ok"));
            }

            @Override
            public void passFinished(Duration took, boolean failed) {
                seen.add("pass");
            }

            @Override
            public void restored(int items) {
                seen.add("restored " + items);
            }
        };
        MongoStorage storage = storage(scratch().config().withEvents(events));
        TableDescription table = activeTable(storage, "metered", false);
        storage.tables().putItem(ACCOUNT, table.tableName(), item("k", "v"));
        storage.tables().deleteItem(ACCOUNT, table.tableName(), dev.stillpoint.domain.request.RequestKey.of("pk",
                new AttributeValue.S("k")));
        assertThat(seen).as("events seen").contains("written PUT ok", "written DELETE ok", "pass");
    }

    // [M1, S2] a restored table's restore fields come back in its snapshot, as DescribeTable has them.
    @Test
    void m1_aRestoredTablesFieldsAreInItsSnapshot() {
        MongoStorage storage = storage(scratch().config());
        TableDescription table = activeTable(storage, "restored", false);
        RestoreSummary summary = new RestoreSummary(Optional.of("arn:aws:dynamodb:local:000000000000:table/src/backup/1"),
                Optional.of("arn:aws:dynamodb:local:000000000000:table/src"), Instant.parse("2026-11-29T10:00:00Z"), false);
        storage.recordRestore(ACCOUNT, table.tableName(), summary);
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName())) {
            assertThat(snapshot.description().restoreSummary()).contains(summary);
            assertThat(snapshot.description().restoreSummary())
                    .isEqualTo(storage.tables().describeTable(ACCOUNT, table.tableName()).restoreSummary());
            assertThat(snapshot.info().kind()).isEqualTo("mongodb-cluster-time");
            assertThat(snapshot.keyOrdered()).isFalse();
        }
    }

    // [M1] a URI that sets readConcernLevel=majority on every handle: the snapshot still reads at one
    // cluster time, because every read sets the snapshot level itself.
    // Mutant (not run here): the explicit withReadConcern(SNAPSHOT) removed -> this open fails.
    @Test
    void m1_aMajorityReadConcernInTheUriDoesNotReachTheSnapshotReads() {
        MongoStorage storage = storage(MongoConfig.of(MongoServers.withOption(scratch().uri(), "readConcernLevel=majority"))
                .withDatabases(scratch().catalog(), scratch().data()).withPageBudget(new PageBudget(5, 1 << 20)));
        TableDescription table = activeTable(storage, "majority", false);
        for (int i = 0; i < 12; i++) {
            storage.tables().putItem(ACCOUNT, table.tableName(), item("k" + i, "v"));
        }
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName())) {
            storage.tables().putItem(ACCOUNT, table.tableName(), item("late", "v"));
            List<StoredItem> items = drain(snapshot);
            assertThat(items).hasSize(12);
            assertThat(items).noneMatch(s -> s.item().get("pk").equals(new AttributeValue.S("late")));
        }
    }

    // [M2] in a snapshot session, a read without the snapshot level reports no snapshot time, and the
    // server refuses the next one with InvalidOptions (72); the mapping names it.
    @Test
    void m2_readsWithoutTheSnapshotLevelFailWithInvalidOptions() {
        try (MongoClient client = MongoClients.create(scratch().uri());
             ClientSession session = client.startSession(ClientSessionOptions.builder().snapshot(true).build())) {
            MongoCollection<BsonDocument> c = client.getDatabase(scratch().data()).getCollection("probe", BsonDocument.class)
                    .withReadConcern(ReadConcern.MAJORITY);
            c.insertOne(new BsonDocument("_id", new BsonInt32(1)));
            Throwable first = catchThrowable(() -> c.find(session).first());
            if (first == null) {
                assertThat(session.getSnapshotTimestamp()).as("a majority read reports no snapshot time").isNull();
            }
            Throwable second = catchThrowable(() -> c.find(session, eq("_id", 1)).first());
            Throwable refused = first != null ? first : second;
            assertThat(refused).isInstanceOf(MongoCommandException.class);
            assertThat(((MongoCommandException) refused).getErrorCode()).isEqualTo(72);
            StorageException mapped = dev.stillpoint.adapters.mongo.engine.MongoFailuresAccess.map(refused);
            assertThat(mapped.getMessage()).contains("InvalidOptions (72)");
        }
    }

    // [K8] the counter counts the snapshot's paging only: an index backfill's reads move it not at all.
    // Mutant (not run here): the counter counting every find -> the first assertion fails.
    @Test
    void k8_anIndexBackfillDoesNotMoveTheCounter() {
        SnapshotRoundTrips counter = new SnapshotRoundTrips(scratch().data(), dev.stillpoint.ports.out.ReadObserver.NONE);
        MongoStorage storage = storage(scratch().config().withPageBudget(new PageBudget(50, 1 << 20))
                .withCommandListener(counter));
        TableDescription table = activeTable(storage, "backfill", false);
        for (int i = 0; i < 300; i++) {
            storage.tables().putItem(ACCOUNT, table.tableName(), item("k" + i, "g" + (i % 7)));
        }
        storage.tables().addGlobalSecondaryIndex(ACCOUNT, table.tableName(), CreateGsiRequest.of(
                new GlobalSecondaryIndex("byG", new KeySchema("g", Optional.empty()), Projection.all(), IndexStatus.CREATING,
                        true, 0, 0), new AttributeDefinition("g", ScalarType.S)));
        assertThat(counter.count()).as("the backfill's reads are not snapshot pages").isZero();
        assertThat(storage.indexEntryIds(ACCOUNT, table.tableName(), "byG")).hasSize(300);
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName())) {
            assertThat(drain(snapshot)).hasSize(300);
        }
        assertThat(counter.count()).as("300 items at 50 a page: a find and at least five getMores").isGreaterThanOrEqualTo(6);
    }

    // [M2] a standalone server answers a snapshot Unsupported, naming why; the permit comes back.
    @Test
    void m2_aStandaloneAnswersUnsupported() {
        try (ScratchDatabases standalone = ScratchDatabases.on(MongoServers.standalone());
             MongoStorage storage = MongoStorage.open(standalone.config())) {
            assertThat(storage.transactional()).isFalse();
            TableDescription table = activeTable(storage, "standalone", false);
            Throwable thrown = catchThrowable(() -> storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName()));
            assertThat(thrown).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                assertThat(e.getMessage()).contains("NotAReplicaSet (123)").contains("replica set");
            });
            assertThat(storage.snapshotPermits().inUse()).isZero();
        }
    }

    // [M3, S6] a document that does not decode ends the stream with an error naming it; the permit comes back.
    @Test
    void m3_anUndecodableDocumentEndsTheStream() {
        MongoStorage storage = storage(scratch().config().withPageBudget(new PageBudget(2, 1 << 20)));
        TableDescription table = activeTable(storage, "damaged", false);
        for (int i = 0; i < 5; i++) {
            storage.tables().putItem(ACCOUNT, table.tableName(), item("k" + i, "v"));
        }
        storage.client().getDatabase(scratch().data()).getCollection("d_" + table.tableId(), BsonDocument.class)
                .insertOne(new BsonDocument("_id", new BsonString("zz-damaged")).append("item", new BsonString("garbage")));
        try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName())) {
            Throwable thrown = catchThrowable(() -> drain(snapshot));
            assertThat(thrown).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                assertThat(e.getMessage()).contains("zz-damaged");
            });
            assertThat(snapshot.items().isReleased()).isTrue();
            assertThat(snapshot.items().hasNext()).as("nothing after the first error").isFalse();
        }
        assertThat(storage.snapshotPermits().inUse()).isZero();
    }

    // [M4] a 38-digit number is refused at the put, naming it, and nothing is written.
    @Test
    void m4_a38DigitNumberIsRefusedAtThePut() {
        MongoStorage storage = storage(scratch().config());
        TableDescription table = activeTable(storage, "digits", false);
        Item item = Item.of(Map.of("pk", new AttributeValue.S("k"), "n",
                AttributeValue.N.of("12345678901234567890123456789012345678")));
        assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, table.tableName(), item))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).contains("'n'").contains("38 significant digits");
                });
        assertThat(storage.tables().getItem(ACCOUNT, table.tableName(), RequestKey.of("pk", new AttributeValue.S("k")))).isEmpty();
    }

    // [D5] DeleteTable is inline on MongoDB: gone when it returns, never DELETING, even with a delay of 1 s or
    // more (which sends it to DELETING on SQLite and PostgreSQL).
    @Test
    void d5_deleteTableIsInlineAndLeavesNoCollection() {
        MongoStorage storage = storage(scratch().config().withControlPlaneDelay(Duration.ofSeconds(2)));
        TableDescription table = activeTable(storage, "dropped", true);
        storage.tables().putItem(ACCOUNT, table.tableName(), item("k", "g"));
        TableDescription answer = storage.tables().deleteTable(ACCOUNT, table.tableName());
        assertThat(answer.status()).isEqualTo(TableStatus.DELETING);
        assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, table.tableName()))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        List<String> left = storage.client().getDatabase(scratch().data()).listCollectionNames().into(new ArrayList<>());
        assertThat(left).noneMatch(name -> name.startsWith("d_" + table.tableId()));
        assertThat(storage.tables().listTables(ACCOUNT)).doesNotContain(table.tableName());
    }

    // [D5, O1] a collection re-created after its table's documents are gone (a put racing DeleteTable) is
    // dropped by the sweep the poller runs; a live table's collections, collections named as this adapter
    // names them but of no table this catalog deleted (another deployment's), and others are kept.
    @Test
    void d5_theSweepDropsOnlyReCreatedCollectionsOfTablesThisCatalogDeleted() {
        MongoStorage storage = storage(scratch().config());
        TableDescription kept = activeTable(storage, "kept", true);
        TableDescription gone = activeTable(storage, "gone", true);
        storage.tables().deleteTable(ACCOUNT, gone.tableName());
        var data = storage.client().getDatabase(scratch().data());
        data.getCollection("d_" + gone.tableId(), BsonDocument.class).insertOne(new BsonDocument("_id", new BsonString("1:Sx,")));
        data.getCollection("d_0123abcd", BsonDocument.class).insertOne(new BsonDocument("_id", new BsonString("1:Sx,")));
        data.getCollection("d_0123abcd__gsi__0", BsonDocument.class).insertOne(new BsonDocument("_id", new BsonString("1:Sx,")));
        data.getCollection("not_ours", BsonDocument.class).insertOne(new BsonDocument("_id", new BsonString("x")));

        assertThat(storage.sweepOrphanedCollections()).containsExactly("d_" + gone.tableId());
        assertThat(data.listCollectionNames().into(new ArrayList<>())).contains("d_" + kept.tableId(),
                "d_" + kept.tableId() + "__gsi__0", "d_0123abcd", "d_0123abcd__gsi__0", "not_ours")
                .doesNotContain("d_" + gone.tableId());
    }

    // [O1] two deployments whose catalogs differ but whose data database is one (a mistyped setting): each
    // sweep keeps the other's collections, and the other's table stays whole and readable.
    @Test
    void o1_aSweepNeverDropsAnotherCatalogsCollectionsInASharedDataDatabase() {
        MongoConfig mine = scratch().config();
        MongoConfig theirs = mine.withDatabases(mine.catalogDatabase() + "_b", mine.dataDatabase());
        MongoStorage victim = storage(theirs);
        try {
            TableDescription precious = activeTable(victim, "precious", true);
            victim.tables().putItem(ACCOUNT, precious.tableName(), Item.of(Map.of("pk", AttributeValue.s("a"))));
            MongoStorage other = storage(mine);
            TableDescription oops = activeTable(other, "oops", false);
            other.tables().deleteTable(ACCOUNT, oops.tableName());

            assertThat(other.sweepOrphanedCollections()).as("[O1] nothing of the other catalog's").isEmpty();
            assertThat(victim.sweepOrphanedCollections()).as("[O1] nor the other way round").isEmpty();
            assertThat(victim.tables().getItem(ACCOUNT, precious.tableName(),
                    RequestKey.of("pk", AttributeValue.s("a")))).as("[O1] the other deployment's item").isPresent();
        } finally {
            victim.client().getDatabase(theirs.catalogDatabase()).drop();
        }
    }

    // [E4] a restore: CREATING with its summary in progress, PutItem from elsewhere refused, items and
    // index entries written through the load, ACTIVE and not in progress once complete; a name in use refused.
    @Test
    void e4_aRestoreIsCreatingUntilCompleteThenActive() {
        MongoStorage storage = storage(scratch().config().withControlPlaneDelay(Duration.ZERO));
        String name = "restored-" + UUID.randomUUID().toString().substring(0, 8);
        RestoreOrigin origin = new RestoreOrigin(Optional.of("arn:aws:dynamodb:us-east-1:1:table/src"),
                Instant.parse("2026-11-29T10:00:00Z"));
        try (RestoreLoad load = storage.restores().begin(restoredDefinition(name), origin)) {
            assertThat(load.table().status()).isEqualTo(TableStatus.CREATING);
            assertThat(load.table().restoreSummary()).contains(origin.summary(true));
            assertThatThrownBy(() -> storage.restores().begin(restoredDefinition(name), origin))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));
            assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, name, item("x", "g")))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
            load.write(List.of(item("a", "g1"), item("b", "g2")));
            TableDescription done = load.complete();
            assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(done.restoreSummary()).contains(origin.summary(false));
        }
        assertThat(storage.indexEntryIds(ACCOUNT, name, "byG")).hasSize(2);
        assertThat(storage.tables().getItem(ACCOUNT, name, RequestKey.of("pk", new AttributeValue.S("a")))).contains(item("a", "g1"));
    }

    // [E5] a load closed without completing leaves no document and no collection.
    @Test
    void e5_aRestoreClosedWithoutCompletingLeavesNothing() {
        MongoStorage storage = storage(scratch().config());
        String name = "abandoned-" + UUID.randomUUID().toString().substring(0, 8);
        String id;
        try (RestoreLoad load = storage.restores().begin(restoredDefinition(name),
                new RestoreOrigin(Optional.empty(), Instant.parse("2026-11-29T10:00:00Z")))) {
            id = load.table().tableId();
            load.write(List.of(item("a", "g1")));
        }
        assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, name))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        List<String> left = storage.client().getDatabase(scratch().data()).listCollectionNames().into(new ArrayList<>());
        assertThat(left).noneMatch(collection -> collection.startsWith("d_" + id));
    }

    private static CreateTableRequest restoredDefinition(String name) {
        return new CreateTableRequest(ACCOUNT, name, new KeySchema("pk", Optional.empty()),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("g", ScalarType.S)),
                List.of(new GlobalSecondaryIndex("byG", new KeySchema("g", Optional.empty()), Projection.all(),
                        IndexStatus.ACTIVE, false, 0, 0)), List.of(), Optional.empty());
    }

    // Items and their index entries move together: a put replaces the entry, a delete removes it.
    @Test
    void itemsKeepTheirIndexEntries() {
        MongoStorage storage = storage(scratch().config());
        TableDescription table = activeTable(storage, "entries", true);
        storage.tables().putItem(ACCOUNT, table.tableName(), item("k", "g1"));
        storage.tables().putItem(ACCOUNT, table.tableName(), item("k", "g2"));
        assertThat(storage.indexEntryIds(ACCOUNT, table.tableName(), "byG")).containsExactly("3:Sg2,2:Sk,");
        assertThat(storage.tables().getItem(ACCOUNT, table.tableName(), RequestKey.of("pk", new AttributeValue.S("k"))))
                .contains(item("k", "g2"));
        storage.tables().deleteItem(ACCOUNT, table.tableName(), RequestKey.of("pk", new AttributeValue.S("k")));
        assertThat(storage.indexEntryIds(ACCOUNT, table.tableName(), "byG")).isEmpty();
    }

    private static List<StoredItem> drain(TableSnapshot snapshot) {
        List<StoredItem> out = new ArrayList<>();
        snapshot.items().forEachRemaining(out::add);
        return out;
    }

    // [D10, R6] a closed MongoDB storage answers as SQLite's and PostgreSQL's do (ClosedStorageAnswers): a stream
    // read on past the close, PutItem, DescribeTable and a new snapshot each TRANSIENT, saying it is closed.
    // Not run on the build machines (no MongoDB server is obtainable there); ClosedTransactionsTest checks the
    // mapping with a client and no server. Mutant (not run here): CursorPages' failure not through closedOr.
    @Test
    void d10_callsAfterCloseAndAStreamReadOnPastItAreRefusedSayingTheStorageIsClosed() throws Exception {
        dev.stillpoint.properties.closing.ClosedStorageAnswers answers =
                new dev.stillpoint.properties.closing.ClosedStorageAnswers();
        MongoStorage storage = MongoStorage.open(scratch().config().withEvents(answers.events()));
        TableDescription table = activeTable(storage, "closed", false);
        int n = 3_500;   // four pages of 1,000
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, table.tableName(), item(String.format("k%05d", i), "v"));
        }
        answers.check(storage, ACCOUNT, table.tableName(), n, item("late", "v"), "is closed (MongoStorage.close)");
    }

    private static Item item(String pk, String g) {
        return Item.of(Map.of("pk", new AttributeValue.S(pk), "g", new AttributeValue.S(g)));
    }

    // [L5] The marker identifies the instant: ten snapshots with a write between each have ten cluster
    // times; two with nothing written between them may share one (the same committed writes).
    // Not run on the build machines (no MongoDB server is obtainable there); runs with the live suite.
    @Test
    void l5_snapshotsWithWritesBetweenThemHaveDistinctMarkers() {
        MongoStorage storage = storage(scratch().config());
        TableDescription table = activeTable(storage, "marker", false);
        java.util.Set<String> markers = new java.util.LinkedHashSet<>();
        for (int i = 0; i < 10; i++) {
            storage.tables().putItem(ACCOUNT, table.tableName(), Item.of(Map.of("pk", AttributeValue.s("k" + i))));
            try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, table.tableName())) {
                markers.add(snapshot.info().marker());
            }
        }
        assertThat(markers).as("[L5] ten snapshots with a write between each have ten markers").hasSize(10);
    }

    private static TableDescription activeTable(MongoStorage storage, String prefix, boolean withGsi) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<AttributeDefinition> definitions = new ArrayList<>(List.of(new AttributeDefinition("pk", ScalarType.S)));
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        if (withGsi) {
            definitions.add(new AttributeDefinition("g", ScalarType.S));
            gsis.add(new GlobalSecondaryIndex("byG", new KeySchema("g", Optional.empty()), Projection.all(),
                    IndexStatus.ACTIVE, false, 0, 0));
        }
        storage.tables().createTable(new CreateTableRequest(ACCOUNT, name, new KeySchema("pk", Optional.empty()),
                definitions, gsis, List.of(), Optional.empty()));
        long deadline = System.nanoTime() + ACTIVE_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            TableDescription d = storage.tables().describeTable(ACCOUNT, name);
            if (d.status() == TableStatus.ACTIVE) {
                return d;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(20).toNanos());   // polling under a deadline
        }
        throw new AssertionError("table '" + name + "' not ACTIVE within " + ACTIVE_DEADLINE);
    }
}

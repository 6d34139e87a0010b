package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.adapters.postgres.testing.PgServer;
import dev.stillpoint.adapters.postgres.testing.ScratchDatabase;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ownership and layout are recorded, not inferred [O1, O2], on a real PostgreSQL with two deployments
 * on one server, as issue 25 found them: a shared-layout catalog given as another catalog's data
 * database is refused and keeps every item; a data database owned by one catalog is refused to
 * another; a separate-layout catalog opened without its data database (or with another one) is
 * refused and nothing is created in the wrong database; a catalog made before the record existed is
 * checked, then its relations registered, and a relation no row lists is reported, never dropped.
 * Each test failed on the code before the record (each says how).
 */
class PostgresOwnershipTest {

    private final List<ScratchDatabase> made = new ArrayList<>();

    private ScratchDatabase database(String label) {
        ScratchDatabase db = PgServer.get().create(label);
        made.add(db);
        return db;
    }

    private ScratchDatabase copy(ScratchDatabase source, String label) {
        ScratchDatabase db = PgServer.get().copy(source, label);
        made.add(db);
        return db;
    }

    /**
     * [O1, L2] A copy of a separate-layout catalog, made as a staging database and given the original's data
     * database by mistake, carries the original's identity; its sweep must still never drop a table the original
     * created after the copy. Found from outside on a PostgreSQL 15 of its own with the CLI: the copy's first
     * write command logged "dropped data relations without a catalog row" and the original's table then read
     * "relation ... does not exist". Its data relations are counted before and after the copy's sweep.
     */
    @Test
    void o1_aCopyOfTheCatalogGivenTheSameDataDatabaseNeverSweepsTheOriginalsLaterTables() throws Exception {
        ScratchDatabase catalog = database("ownorig");
        ScratchDatabase data = database("owndata");
        try (PostgresStorage original = PostgresStorage.open(separate(catalog, data))) {
            load(original, "before", 1);
        }
        ScratchDatabase staging = copy(catalog, "owncopy");
        String after;
        try (PostgresStorage original = PostgresStorage.open(separate(catalog, data))) {
            after = load(original, "after", 3);
        }
        List<String> relations = dataRelations(data);
        assertThat(relations).as("two tables, a base and two index relations each").hasSize(6);
        try (PostgresStorage copied = PostgresStorage.open(separate(staging, data))) {
            assertThat(copied.sweepOrphanedRelations()).as("the copy's sweep drops nothing").isEmpty();
        }
        assertThat(dataRelations(data)).as("every relation is still there").isEqualTo(relations);
        try (PostgresStorage original = PostgresStorage.open(separate(catalog, data))) {
            assertThat(count(original, after)).as("the original's later table keeps its items").isEqualTo(3);
        }
    }

    /**
     * [E5, O1] A copy of the catalog made while a restore was loading still holds that restore in progress. Once
     * the original had finished it, the copy's restore sweep took it for dead and dropped the finished table's
     * relations through the shared data database. Found from outside with the CLI: a pg_dump of the catalog
     * taken during `restore`, loaded into another database and opened with the original's data URL, and 100,000
     * restored items were gone from the original. The copy's state is made here from a copy taken after the
     * restore, its restore record set back in progress and its row CREATING and long due, as pg_dump took it. The
     * data database is first made as the build before left it, without the record of completed restores.
     */
    @Test
    void e5_aCopyHoldingARestoreInProgressNeverDropsTheTableItsOriginalFinished() throws Exception {
        ScratchDatabase catalog = database("ownrest");
        ScratchDatabase data = database("ownrestdata");
        String name = Tables.uniqueName("restored");
        String tableId;
        PostgresStorage.open(separate(catalog, data)).close();
        // As a data database set up by a build before the record of completed restores: the next opening adds it.
        exec(data, "DROP TABLE sp_data_restores");
        try (PostgresStorage original = PostgresStorage.open(separate(catalog, data))) {
            try (RestoreLoad load = original.restores().begin(RestoreFixtures.definition(name),
                    new RestoreOrigin(Optional.empty(), Instant.parse("2026-12-08T00:00:00Z")))) {
                load.write(RestoreFixtures.items(0, 20));
                tableId = load.complete().tableId();
            }
        }
        ScratchDatabase staging = copy(catalog, "ownrestcopy");
        exec(staging, "UPDATE sp_restore_records SET restore_in_progress = true WHERE table_id = '" + tableId + "'",
                "UPDATE sp_tables SET status = 'CREATING', status_due_at = 0 WHERE table_id = '" + tableId + "'");
        List<String> relations = dataRelations(data);
        assertThat(relations).as("the restored table's base and two index relations").hasSize(3);
        PostgresConfig fast = separate(staging, data).withRestoreIdleLimit(Duration.ofSeconds(1))
                .withPollerSchedule(new PollerSchedule(Duration.ofMillis(200), Duration.ofMillis(200)));
        try (PostgresStorage copied = PostgresStorage.open(fast)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while ("CREATING".equals(status(staging, tableId)) && System.nanoTime() < deadline) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
            assertThat(status(staging, tableId)).as("the copy's restore sweep took the restore for dead")
                    .isNotEqualTo("CREATING");
            long passes = copied.pollerPasses();
            while (copied.pollerPasses() < passes + 3 && System.nanoTime() < deadline) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            }
            assertThat(copied.pollerPasses()).as("three more passes, each retrying the drop").isGreaterThanOrEqualTo(passes + 3);
        }
        assertThat(dataRelations(data)).as("the finished table's relations are all there").isEqualTo(relations);
        try (PostgresStorage original = PostgresStorage.open(separate(catalog, data))) {
            assertThat(count(original, name)).as("the original's restored table keeps its items").isEqualTo(20);
            original.tables().deleteTable(ACCOUNT, name);
            Tables.awaitGone(original.tables(), name, Duration.ofSeconds(30));
        }
        assertThat(relations(data, "relname = 'sp_data_restores'")).as("the record exists").hasSize(1);
        try (Connection c = data.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM sp_data_restores WHERE table_id = '" + tableId + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("a deleted table's completion record goes with its relations").isZero();
        }
    }

    private static String status(ScratchDatabase db, String tableId) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT status FROM sp_tables WHERE table_id = '" + tableId + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @AfterEach
    void dropDatabases() {
        made.forEach(ScratchDatabase::close);
    }

    private static PostgresConfig quick(PostgresConfig c) {
        return c.withConnectionTimeout(Duration.ofSeconds(10)).withControlPlaneDelay(Duration.ZERO);
    }

    private static PostgresConfig shared(ScratchDatabase db) {
        return quick(PostgresConfig.shared(db.database()));
    }

    private static PostgresConfig separate(ScratchDatabase catalog, ScratchDatabase data) {
        return quick(PostgresConfig.separate(catalog.database(), data.database()));
    }

    private static String load(PostgresStorage storage, String label, int items) {
        String name = Tables.uniqueName(label);
        Tables.createActive(storage.tables(), Tables.withIndexes(name));
        for (int i = 0; i < items; i++) {
            storage.tables().putItem(ACCOUNT, name, Tables.item("p" + i, i, "g" + i, "l" + i));
        }
        return name;
    }

    private static long count(PostgresStorage storage, String table) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            return s.items().stream().count();
        }
    }

    private static List<String> dataRelations(ScratchDatabase db) throws Exception {
        return relations(db, "relkind = 'r' AND relname LIKE 'd\\_%'");
    }

    /** The names of {@code db}'s relations that {@code where} selects, in order. */
    private static List<String> relations(ScratchDatabase db, String where) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT relname FROM pg_class WHERE " + where + " ORDER BY relname")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static void exec(ScratchDatabase db, String... sql) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    private static StorageException refusal(Runnable open) {
        Throwable t = catchThrowable(open::run);
        assertThat(t).as("the opening is refused").isInstanceOf(StorageException.class);
        StorageException e = (StorageException) t;
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(ErrorReason.VALIDATION);
        return e;
    }

    // [O1, R6] Found from outside: a database whose schema already holds an application's sp_tables (no
    // sp_schema_version) made the first migration fail with "(SQLSTATE 42P07): relation "sp_tables" already
    // exists [InternalServerError]". Now it is refused before any migration, naming the relations, the schema
    // and the remedy, and the database is as it was; a relation under another name (customers) is no reason.
    @Test
    void o1_aSchemaHoldingRelationsUnderTheCatalogsNamesIsRefusedAndLeftAsItWas() throws Exception {
        ScratchDatabase other = database("other_app");
        exec(other, "CREATE TABLE customers (id int)", "CREATE TABLE sp_tables (id int)",
                "CREATE VIEW sp_settings AS SELECT 1 AS one");
        StorageException e = refusal(() -> PostgresStorage.open(shared(other)).close());
        assertThat(e.getMessage()).contains("holds [sp_settings, sp_tables] in schema public")
                .contains("but no sp_schema_version").contains("left the database as it was")
                .contains("currentSchema=");
        assertThat(relations(other, "relnamespace = 'public'::regnamespace")).as("nothing created")
                .containsExactly("customers", "sp_settings", "sp_tables");

        ScratchDatabase unrelated = database("unrelated_app");
        exec(unrelated, "CREATE TABLE customers (id int)");
        try (PostgresStorage storage = PostgresStorage.open(shared(unrelated))) {
            assertThat(storage.tables().listTables(ACCOUNT)).as("another application's customers is no reason").isEmpty();
        }
    }

    // [O1] Issue 25, finding 1: catalog app2 opened with a shared-layout catalog (victim) as its data
    // database. Before the record, the opening succeeded and its orphan sweep dropped victim's data
    // relations (they match d_<32 hex> and app2 has no row for them): this test then failed on
    // "victim keeps every item" (Table not found). Now the opening is refused by name, nothing is
    // created in either database, and victim's table is intact and readable.
    @Test
    void o1_aSharedCatalogGivenAsAnotherCatalogsDataDatabaseIsRefusedAndKeepsItsItems() throws Exception {
        ScratchDatabase victim = database("victim");
        ScratchDatabase app2 = database("app2");
        String precious;
        try (PostgresStorage storage = PostgresStorage.open(shared(victim))) {
            precious = load(storage, "Precious", 87);
        }
        List<String> before = dataRelations(victim);
        assertThat(before).hasSize(3);

        StorageException e = refusal(() -> PostgresStorage.open(separate(app2, victim)).close());
        assertThat(e.getMessage()).contains(victim.name()).contains("holds a Stillpoint catalog of its own");

        assertThat(dataRelations(victim)).as("victim's relations").isEqualTo(before);
        assertThat(dataRelations(app2)).as("nothing created in app2").isEmpty();
        try (PostgresStorage storage = PostgresStorage.open(shared(victim))) {
            assertThat(count(storage, precious)).as("victim keeps every item").isEqualTo(87);
        }
    }

    // [O1] A data database one catalog owns is refused to another catalog, naming both; the owner's
    // tables stay. Before the record the second catalog opened and its first sweep dropped the first
    // catalog's relations ("the owner's table stays" failed).
    @Test
    void o1_aDataDatabaseOwnedByOneCatalogIsRefusedToAnother() throws Exception {
        ScratchDatabase catalogA = database("owner_c");
        ScratchDatabase catalogB = database("intruder_c");
        ScratchDatabase data = database("owned_d");
        String table;
        try (PostgresStorage storage = PostgresStorage.open(separate(catalogA, data))) {
            table = load(storage, "owned", 12);
        }
        StorageException e = refusal(() -> PostgresStorage.open(separate(catalogB, data)).close());
        assertThat(e.getMessage()).contains(data.name()).contains("belongs to another Stillpoint catalog")
                .contains(catalogA.name());
        // Nor is the data database opened as a catalog of its own: refused before any migration runs.
        StorageException asCatalog = refusal(() -> PostgresStorage.open(shared(data)).close());
        assertThat(asCatalog.getMessage()).contains("is the data database of").contains(catalogA.name());
        try (Connection c = data.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT to_regclass('sp_schema_version') IS NULL AND to_regclass('sp_tables') IS NULL")) {
            rs.next();
            assertThat(rs.getBoolean(1)).as("no catalog made in the data database").isTrue();
        }
        try (PostgresStorage storage = PostgresStorage.open(separate(catalogA, data))) {
            assertThat(count(storage, table)).as("the owner's table stays").isEqualTo(12);
        }
    }

    // [O2] Issue 25, finding 2: a separate-layout catalog opened as shared, or with another data
    // database, is refused naming the layout, and nothing is created where it does not belong. Before
    // the record, the shared opening succeeded and CreateTable put a data relation in the catalog
    // database ("nothing created in the catalog database" failed).
    @Test
    void o2_aSeparateCatalogOpenedAnotherWayIsRefusedAndNothingIsCreated() throws Exception {
        ScratchDatabase catalog = database("sep_c");
        ScratchDatabase data = database("sep_d");
        ScratchDatabase other = database("other_d");
        try (PostgresStorage storage = PostgresStorage.open(separate(catalog, data))) {
            load(storage, "Sep", 3);
        }
        StorageException asShared = refusal(() -> {
            try (PostgresStorage storage = PostgresStorage.open(shared(catalog))) {
                storage.tables().createTable(Tables.hashOnly(Tables.uniqueName("MixedNew")));
            }
        });
        assertThat(asShared.getMessage()).contains("separate layout").contains(data.name()).contains("--data-url");
        assertThat(dataRelations(catalog)).as("nothing created in the catalog database").isEmpty();

        StorageException elsewhere = refusal(() -> PostgresStorage.open(separate(catalog, other)).close());
        assertThat(elsewhere.getMessage()).contains("lists table 'Sep_").contains(other.name());
        assertThat(dataRelations(other)).as("nothing created in the other database").isEmpty();

        // And the other way round: a shared-layout catalog opened with a data database.
        ScratchDatabase sharedDb = database("shared");
        try (PostgresStorage storage = PostgresStorage.open(shared(sharedDb))) {
            load(storage, "S", 1);
        }
        StorageException withData = refusal(() -> PostgresStorage.open(separate(sharedDb, other)).close());
        assertThat(withData.getMessage()).contains("shared layout").contains(other.name());
        assertThat(dataRelations(other)).isEmpty();
    }

    // [O1] A deployment made before the record (simulated by removing it): opened with the wrong
    // layout it is refused, as its listed relations are not where the opening looks; opened right,
    // its relations are registered as its own (so its sweep still guards them), and a relation under
    // our naming that no row lists is reported and left, never dropped. Without the relation check
    // the shared opening stamped the catalog SHARED ("refused as shared" failed).
    @Test
    void o1_aDeploymentFromBeforeTheRecordIsCheckedThenRegistered() throws Exception {
        ScratchDatabase catalog = database("old_c");
        ScratchDatabase data = database("old_d");
        String table;
        try (PostgresStorage storage = PostgresStorage.open(separate(catalog, data))) {
            table = load(storage, "old", 5);
        }
        exec(catalog, "DELETE FROM sp_deployment");
        String stranger = "d_0123456789abcdef0123456789abcdef";
        exec(data, "DROP TABLE sp_data_owner", "DROP TABLE sp_data_relations",
                "CREATE TABLE " + stranger + " (pk text PRIMARY KEY, item text)");

        StorageException asShared = refusal(() -> PostgresStorage.open(shared(catalog)).close());
        assertThat(asShared.getMessage()).as("refused as shared").contains("lists table '" + table + "'");
        try (Connection c = catalog.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM sp_deployment")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the refused opening recorded nothing").isZero();
        }

        try (PostgresStorage storage = PostgresStorage.open(separate(catalog, data))) {
            assertThat(storage.sweepOrphanedRelations()).as("an unlisted relation is never swept").isEmpty();
            assertThat(count(storage, table)).isEqualTo(5);
        }
        assertThat(dataRelations(data)).contains(stranger).hasSize(4);
        try (Connection c = data.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM sp_data_relations WHERE relation_name <> '"
                     + stranger + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the listed relations registered").isEqualTo(3);
        }
    }

    // [L2, R6] Found from outside (psql set an index's relation_name to another application's table 'users', then
    // delete-table on the CLI): DeleteTable threw a bare IllegalArgumentException ("not a data relation name: users"),
    // which the CLI could only report as an unexpected internal failure. Now it is catalog damage naming the table
    // and the stored name; the table stays ACTIVE, 'users' keeps its row, and the attempt gives its connection back.
    @Test
    void o3_aCatalogRowNamingAnotherApplicationsTableIsCatalogDamageNeverADrop() throws Exception {
        ScratchDatabase db = database("foreign");
        try (PostgresStorage storage = PostgresStorage.open(shared(db))) {
            String table = load(storage, "named", 3);
            exec(db, "CREATE TABLE users (id int PRIMARY KEY, name text)", "INSERT INTO users VALUES (1, 'alice')",
                    "UPDATE sp_indexes SET relation_name = 'users' WHERE index_name = 'by_g'");
            Throwable t = catchThrowable(() -> storage.tables().deleteTable(ACCOUNT, table));
            assertThat(t).as("a typed error [R6]").isInstanceOf(StorageException.class);
            StorageException e = (StorageException) t;
            assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
            assertThat(e.getMessage()).contains("table '" + table + "': catalog damage: the stored relation name ('users')");
            assertThat(storage.tables().describeTable(ACCOUNT, table).status()).isEqualTo(TableStatus.ACTIVE);
            assertThat(storage.borrowedConnections()).as("the attempt gave its connection back").isZero();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM users WHERE id = 1")) {
            assertThat(rs.next()).as("[L2] 'users' and its row are still there").isTrue();
            assertThat(rs.getString(1)).isEqualTo("alice");
        }
    }
}

package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.sqlcatalog.CatalogRow;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.sqlcatalog.RowLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The item writes' kept statement text and their pipelines, on a real server (issue 13): a pipeline that
 * fails leaves nothing, a stamp that changed (before or while the requirement waits for the row) fails
 * it before any write, a statement kept prepared never blocks a DROP of its relation, the text stays
 * within its capacity, and a damaged relation name never reaches SQL.
 */
class WriteStatementsTest {

    private static final Duration ACTIVE = Duration.ofSeconds(30);
    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("writestatements");

    /** A fresh hash-only table's definition, as item writes load it. */
    private static CatalogRows.Loaded table(PostgresStorage storage, Connection c) {
        String name = Tables.uniqueName("ws");
        storage.tables().createTable(Tables.hashOnly(name));
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, ACTIVE);
        return CatalogRows.loadForItems(Transaction.dsl(c), ACCOUNT, name, RowLock.NONE).orElseThrow();
    }

    private static Pipeline upsert(WriteStatements statements, CatalogRows.Loaded table, String pk) {
        Pipeline p = new Pipeline();
        p.add(statements.base(table).write(), List.of(pk, "{\"pk\":{\"S\":\"" + pk + "\"}}"));
        return p;
    }

    private static long rows(Connection c, String relation) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + relation + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aPipelineOnAnAutoCommitConnectionCommitsNothingWhenALaterStatementFails() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded table = table(storage, c);
            Pipeline p = upsert(new WriteStatements(WriteStatements.CAPACITY), table, "a");
            p.add("INSERT INTO \"d_no_such_relation\" (pk) VALUES (?)", List.of("a"));
            SQLException failed = catchThrowableOfType(() -> p.run(c), SQLException.class);
            assertThat(failed.getSQLState()).isEqualTo("42P01");
            assertThat(rows(c, table.row().relationName()))
                    .as("the upsert before the failed statement was not committed").isZero();
        }
    }

    @Test
    void aStampThatNoLongerMatchesFailsThePipelineBeforeAnyWrite() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded table = table(storage, c);
            WriteStatements statements = new WriteStatements(WriteStatements.CAPACITY);
            CatalogStamp now = table.stamp().orElseThrow();
            Pipeline stale = new Pipeline();
            stale.require(ACCOUNT, table.description().tableName(), new CatalogStamp(now.tableId(), now.catalogVersion() - 1));
            stale.add(statements.base(table).write(), List.of("a", "{}"));
            SQLException failed = catchThrowableOfType(() -> stale.run(c), SQLException.class);
            assertThat(failed.getSQLState()).as("the requirement's division by zero").isEqualTo("22012");
            assertThat(rows(c, table.row().relationName())).as("nothing written under a stale stamp").isZero();

            Pipeline current = new Pipeline();
            current.require(ACCOUNT, table.description().tableName(), now);
            current.add(statements.base(table).write(), List.of("a", "{}"));
            current.run(c);
            assertThat(rows(c, table.row().relationName())).as("written under the current stamp").isEqualTo(1);
        }
    }

    @Test
    void aChangeCommittedWhileTheRequirementWaitsForTheRowFailsIt() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED);
             Connection updater = databases.dataSession(Layout.SHARED);
             Connection watcher = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded table = table(storage, c);
            String name = table.description().tableName();
            // As UpdateTable does: the row FOR UPDATE, then a change the triggers stamp with a new version.
            updater.setAutoCommit(false);
            try (PreparedStatement s = updater.prepareStatement("SELECT 1 FROM sp_tables WHERE table_name = ? FOR UPDATE")) {
                s.setString(1, name);
                s.execute();
            }
            try (PreparedStatement s = updater.prepareStatement(
                    "UPDATE sp_tables SET attribute_definitions_json = attribute_definitions_json WHERE table_name = ?")) {
                s.setString(1, name);
                s.execute();
            }
            int backend = backendPid(c);
            Pipeline p = new Pipeline();
            p.require(ACCOUNT, name, table.stamp().orElseThrow());
            p.add(new WriteStatements(WriteStatements.CAPACITY).base(table).write(), List.of("a", "{}"));
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    p.run(c);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitLockWait(watcher, backend);
            updater.commit();
            Throwable failed = catchThrowableOfType(() -> sent.get(10, TimeUnit.SECONDS), Exception.class).getCause().getCause();
            assertThat(((SQLException) failed).getSQLState())
                    .as("the row re-read after the wait has a new version").isEqualTo("22012");
            assertThat(rows(updater, table.row().relationName())).isZero();
        }
    }

    @Test
    void aStatementKeptPreparedNeverBlocksTheDropOfItsRelation() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED);
             Connection dropper = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded table = table(storage, c);
            WriteStatements statements = new WriteStatements(WriteStatements.CAPACITY);
            for (int i = 0; i < 10; i++) {
                upsert(statements, table, "k" + i).run(c);
            }
            String relation = table.row().relationName();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%" + relation + "%'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("pgjdbc keeps the upsert prepared at the server").isEqualTo(1);
            }
            try (Statement s = dropper.createStatement()) {
                s.execute("SET lock_timeout = '1s'");
                s.execute("DROP TABLE \"" + relation + "\"");
            }
            SQLException gone = catchThrowableOfType(() -> upsert(statements, table, "z").run(c), SQLException.class);
            assertThat(gone.getSQLState()).as("the kept statement's relation is gone, and it says so").isEqualTo("42P01");
        }
    }

    @Test
    void theTextStaysWithinItsCapacityAndAnEvictedRelationIsRenderedAgain() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded first = table(storage, c);
            CatalogRows.Loaded second = table(storage, c);
            CatalogRows.Loaded third = table(storage, c);
            WriteStatements statements = new WriteStatements(2);
            WriteStatements.RelationStatements firstText = statements.base(first);
            statements.base(second);
            statements.base(third);
            assertThat(statements.relationsKept()).as("at most the capacity, the least recently used dropped").isEqualTo(2);
            assertThat(statements.base(first)).as("made again after eviction, to the same text").isEqualTo(firstText);
            assertThat(firstText.write()).contains("\"" + first.row().relationName() + "\"");
            assertThat(statements.relationsKept()).isEqualTo(2);
        }
    }

    @Test
    void aDamagedRelationNameNeverReachesSql() throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(Layout.SHARED));
             Connection c = databases.dataSession(Layout.SHARED)) {
            CatalogRows.Loaded table = table(storage, c);
            CatalogRow row = table.row();
            CatalogRows.Loaded loaded = new CatalogRows.Loaded(new CatalogRow(row.tableId(), row.catalogVersion(),
                    "d_x\"; DROP TABLE sp_tables; --", row.pkType(), row.skType(), row.indexes(), row.vectorRelations(),
                    row.record(), false));
            WriteStatements statements = new WriteStatements(WriteStatements.CAPACITY);
            IllegalArgumentException refused = catchThrowableOfType(() -> statements.base(loaded),
                    IllegalArgumentException.class);
            assertThat(refused).as("the name is checked before any text is made").hasMessageContaining("not a data relation name");
            assertThat(statements.relationsKept()).isZero();
        }
    }

    private static int backendPid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Until {@code backend} waits for a lock, within a deadline; {@code c} auto-commit (activity is read anew per transaction). */
    private static void awaitLockWait(Connection c, int backend) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (PreparedStatement s = c.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
            s.setInt(1, backend);
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next() && "Lock".equals(rs.getString(1))) {
                        return;
                    }
                }
                Thread.onSpinWait();
            }
        }
        throw new AssertionError("backend " + backend + " never waited for the row lock");
    }
}

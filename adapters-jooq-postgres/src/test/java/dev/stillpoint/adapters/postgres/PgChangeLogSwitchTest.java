package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.testing.DaemonThreads;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Sessions;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.TableChanges;
import dev.stillpoint.ports.in.TableSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The change log switched on later, against writers [I1, I4], on both layouts. The switch takes the
 * table's catalog row FOR UPDATE, so it waits for every item write in progress (which holds the row FOR KEY
 * SHARE until its data has committed): a write that read the setting OFF is never committed after the
 * log's START. And an engine that kept the table's definition from before the switch (another server node)
 * logs its next write, since the switch moves the table's catalog version.
 */
class PgChangeLogSwitchTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("logswitch");

    private static String table(PostgresStorage storage) {
        String name = Tables.uniqueName("sw");
        storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.S).build());
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, BOUND);
        return name;
    }

    private static Item item(String pk) {
        return Item.of(Map.of("pk", AttributeValue.s(pk)));
    }

    // [I4] a writer's unit in progress (its catalog row held FOR KEY SHARE, as PgItemUnit holds it) holds the
    // switch back until it ends; the switch then completes.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void i4_theSwitchWaitsForAnItemWriteInProgress(Layout layout) throws Exception {
        ExecutorService pool = DaemonThreads.named("log-switch");
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            String name = table(storage);
            Connection writer = databases.catalogDatabase(layout).connect();
            writer.setAutoCommit(false);
            try (PreparedStatement hold = writer.prepareStatement(
                    "SELECT 1 FROM sp_tables WHERE account_id = ? AND table_name = ? FOR KEY SHARE")) {
                hold.setString(1, ACCOUNT);
                hold.setString(2, name);
                hold.executeQuery().close();
            }
            Future<TableDescription> switched = pool.submit(
                    () -> storage.tables().updateChangeLog(ACCOUNT, name, ChangeLog.NEW_IMAGE));
            boolean waited;
            try (Connection probe = databases.catalogDatabase(layout).connect();
                 PreparedStatement waiting = probe.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                         + " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                         + " AND query ILIKE '%sp_tables%for update%'")) {
                waited = Sessions.awaitPositive(waiting, System.nanoTime() + BOUND.toNanos());
            }
            assertThat(waited).as("[I4] the switch waits for the row a write in progress holds").isTrue();
            assertThat(switched.isDone()).as("[I4] and has not completed while it is held").isFalse();
            Sessions.release(writer);
            assertThat(switched.get(BOUND.toSeconds(), TimeUnit.SECONDS).changeLog()).as("[I1] switched once free")
                    .isEqualTo(ChangeLog.NEW_IMAGE);
        } finally {
            pool.shutdownNow();
        }
    }

    // [I1] an engine that kept the definition from before the switch (its puts prepared and its definition
    // cached) logs its next put: full(A) + changes(A, B) == full(B) across two engines.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void i1_anEngineThatKeptTheOldDefinitionLogsItsNextWrite(Layout layout) {
        try (PostgresStorage first = PostgresStorage.open(databases.undelayed(layout));
             PostgresStorage second = PostgresStorage.open(databases.undelayed(layout))) {
            String name = table(first);
            for (int i = 0; i < 8; i++) {
                first.tables().putItem(ACCOUNT, name, item("warm" + i));
            }
            second.tables().updateChangeLog(ACCOUNT, name, ChangeLog.NEW_IMAGE);
            String markerA;
            try (TableSnapshot a = second.snapshots().openTableSnapshot(ACCOUNT, name)) {
                markerA = a.info().marker();
            }
            first.tables().putItem(ACCOUNT, name, item("after"));
            first.tables().deleteItem(ACCOUNT, name, dev.stillpoint.domain.request.RequestKey.of("pk",
                    AttributeValue.s("warm0")));
            TableChanges changes = second.changeLog().changesSince(ACCOUNT, name, markerA);
            assertThat(changes.changes()).as("[I1] the first engine's put and delete after the switch are logged")
                    .extracting(c -> ((AttributeValue.S) c.keys().get("pk")).value())
                    .containsExactlyInAnyOrder("after", "warm0");
        }
    }
}

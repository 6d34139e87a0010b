package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CreateTable through a lightweight transaction: twenty concurrent CreateTables of one name have
 * exactly one winner; every other one gets ResourceInUse, and the winner's table is the one there.
 */
class CreateTableRaceTest extends OnSharedNode {

    static final int RACERS = 20;
    /** A second engine on the same keyspaces: half the racers use it, as two servers would. */
    static CassandraStorage other;

    @BeforeAll
    static void setUp() {
        other = CassandraStorage.open(storage.config());
    }

    @AfterAll
    static void tearDown() {
        if (other != null) {
            other.close();
        }
    }

    /** The outcome of one racer: its description, or its error. */
    record Outcome(TableDescription created, StorageException refused) {
    }

    List<Outcome> race(String account, String table) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            CountDownLatch ready = new CountDownLatch(RACERS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Outcome>> futures = new ArrayList<>();
            for (int i = 0; i < RACERS; i++) {
                CassandraStorage engine = i % 2 == 0 ? storage : other;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    try {
                        return new Outcome(engine.tables().createTable(
                                TestCassandra.composite(account, table, ScalarType.S, ScalarType.N)), null);
                    } catch (StorageException e) {
                        return new Outcome(null, e);
                    }
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> f : futures) {
                outcomes.add(f.get(120, TimeUnit.SECONDS));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twentyConcurrentCreateTablesOfOneNameHaveExactlyOneWinner() throws Exception {
        // A fresh account: the racers also race to create its keyspace.
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("race");
        List<Outcome> outcomes = race(account, table);

        List<Outcome> winners = outcomes.stream().filter(o -> o.created() != null).toList();
        List<Outcome> losers = outcomes.stream().filter(o -> o.refused() != null).toList();
        assertThat(winners).as("exactly one of %d racers wins", RACERS).hasSize(1);
        assertThat(losers).as("every other racer is refused").hasSize(RACERS - 1);
        for (Outcome loser : losers) {
            assertThat(loser.refused().reason()).as("a loser gets ResourceInUse: %s", loser.refused())
                    .isEqualTo(ErrorReason.RESOURCE_IN_USE);
            assertThat(loser.refused().getMessage()).contains(table);
        }
        TableDescription won = winners.get(0).created();
        assertThat(won.status()).isEqualTo(TableStatus.ACTIVE);
        TableDescription described = storage.tables().describeTable(account, table);
        assertThat(described.tableId()).as("the winner's table is the one described").isEqualTo(won.tableId());
        assertThat(described.status()).isEqualTo(TableStatus.ACTIVE);
        assertThat(other.tables().listTables(account)).containsExactly(table);

        // The winner's data table works, from either engine.
        storage.tables().putItem(account, table, TestCassandra.item("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1")));
        assertThat(other.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1")))).isPresent();
        // Exactly one items table was created for the name: the losers created no data tables.
        assertThat(TestCassandra.keyspaces(storage)).contains(accountKeyspace(account));
        long itemsTables = storage.cql().read("counting tables",
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", accountKeyspace(account)).all().size();
        assertThat(itemsTables).as("one items table in the account's keyspace").isEqualTo(1);
    }

    @Test
    void aSecondRaceAfterTheDeleteHasAWinnerAgain() throws Exception {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("rerace");
        assertThat(race(account, table).stream().filter(o -> o.created() != null)).hasSize(1);
        storage.tables().deleteTable(account, table);
        List<Outcome> again = race(account, table);
        assertThat(again.stream().filter(o -> o.created() != null)).as("one winner after the delete").hasSize(1);
        assertThat(again.stream().filter(o -> o.refused() != null)
                .allMatch(o -> o.refused().reason() == ErrorReason.RESOURCE_IN_USE)).isTrue();
    }

    private static String accountKeyspace(String account) {
        return DataNames.accountKeyspace(storage.config().keyspacePrefix(), account);
    }
}

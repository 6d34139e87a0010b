package dev.stillpoint.adapters.mongo.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.connection.ClusterId;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import dev.stillpoint.ports.out.ReadObserver;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/**
 * The counter the kit's K1 relies on [K1, K8], fed the command events the driver would publish: it
 * must count what the server was asked (a snapshot find and the getMores on its cursor), not what
 * the stream asked for, and must not count a GSI backfill's reads or the catalog's.
 *
 * <p>Mutants run by hand: every find counted (the readConcern check removed) -> "a backfill's find at
 * majority is not counted" fails; getMore counted on any cursor -> the same assertion fails (the backfill cursor's getMore is counted).
 */
class SnapshotRoundTripsTest {

    private static final ConnectionDescription CONNECTION =
            new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress("db.example", 27017)));

    private final AtomicInteger observed = new AtomicInteger();
    private final SnapshotRoundTrips counter = new SnapshotRoundTrips("data", new ReadObserver() {
        @Override
        public void roundTrip() {
            observed.incrementAndGet();
        }
    });

    @Test
    void k1_countsASnapshotFindAndTheGetMoresOnItsCursor() {
        started(1, "data", "find", find("snapshot"));
        succeeded(1, "find", cursorReply(77));
        started(2, "data", "getMore", getMore(77));
        started(3, "data", "getMore", getMore(77));

        assertThat(counter.count()).isEqualTo(3);
        assertThat(observed.get()).as("each count reaches the kit's observer").isEqualTo(3);
    }

    @Test
    void k8_aBackfillsReadsAndTheCatalogsAreNotCounted() {
        started(1, "data", "find", find("majority"));
        succeeded(1, "find", cursorReply(88));
        started(2, "data", "getMore", getMore(88));
        assertThat(counter.count()).as("a backfill's find at majority is not counted").isZero();

        started(3, "catalog", "find", find("snapshot"));
        assertThat(counter.count()).as("a snapshot read of the catalog is not an item page").isZero();

        started(4, "data", "find", find("snapshot"));
        succeeded(4, "find", cursorReply(99));
        started(5, "data", "getMore", getMore(12345));
        assertThat(counter.count()).as("another cursor's getMore").isEqualTo(1);

        started(6, "data", "insert", new BsonDocument("insert", new BsonString("d_x")));
        assertThat(counter.count()).isEqualTo(1);
    }

    private void started(int requestId, String database, String name, BsonDocument command) {
        counter.commandStarted(new CommandStartedEvent(null, 1L, requestId, CONNECTION, database, name, command));
    }

    private void succeeded(int requestId, String name, BsonDocument reply) {
        counter.commandSucceeded(new CommandSucceededEvent(null, 1L, requestId, CONNECTION, name, "data", reply, 1000L));
    }

    private static BsonDocument find(String level) {
        return new BsonDocument("find", new BsonString("d_x")).append("batchSize", new BsonInt32(50))
                .append("readConcern", new BsonDocument("level", new BsonString(level)));
    }

    private static BsonDocument getMore(long cursorId) {
        return new BsonDocument("getMore", new BsonInt64(cursorId)).append("collection", new BsonString("d_x"));
    }

    private static BsonDocument cursorReply(long cursorId) {
        return new BsonDocument("ok", new BsonInt32(1)).append("cursor", new BsonDocument("id", new BsonInt64(cursorId))
                .append("ns", new BsonString("data.d_x")).append("firstBatch", new BsonArray()));
    }
}

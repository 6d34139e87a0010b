package dev.stillpoint.adapters.mongo.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What the MongoDB adapter answers once its storage is closed [D10, R6], as SQLite and PostgreSQL answer: TRANSIENT,
 * saying the storage is closed. A real driver client on an address where no server listens (the calls never leave
 * the client: a closed client refuses them itself, a connection is made only on a server's first use), so it runs
 * here, where no MongoDB server is obtainable; {@code MongoLiveTest.d10_...} checks the whole storage on a server.
 * Before: INTERNAL "failed: java.lang.IllegalStateException: state should be: open".
 */
class ClosedTransactionsTest {

    private static final String WHERE = "mongodb://127.0.0.1:9";

    private static Transactions work(MongoClient client) {
        return new Transactions(WHERE, client, client.getDatabase("sp_catalog"), client.getDatabase("sp_data"), true);
    }

    @Test
    void d10_aCallAfterTheCloseIsRefusedSayingTheStorageIsClosed() {
        MongoClient client = MongoClients.create(WHERE + "/?serverSelectionTimeoutMS=200");
        Transactions work = work(client);
        work.close();

        AtomicInteger started = new AtomicInteger();
        refused(() -> work.run("reading table 't'", () -> {
            started.incrementAndGet();
            return work.catalog("tables").find().first();
        }), "run after close");
        refused(() -> work.write("writing an item of table 't'", s -> {
            started.incrementAndGet();
            return work.data("t").insertOne(new org.bson.BsonDocument());
        }), "write after close");
        assertThat(started).as("calls begun after the close: none, not even up to the driver's refusal").hasValue(0);
    }

    @Test
    void d10_aCallTheCloseCutOffIsRefusedSayingTheStorageIsClosed() {
        MongoClient client = MongoClients.create(WHERE + "/?serverSelectionTimeoutMS=200");
        Transactions work = work(client);

        // The close lands while the call runs: the driver then refuses on its own ("state should be: open").
        refused(() -> work.run("reading table 't'", () -> {
            work.close();
            return work.catalog("tables").find().first();
        }), "a call the close cut off");
    }

    @Test
    void d10_aFailureOfAnOpenStorageKeepsItsOwnReason() {
        MongoClient client = MongoClients.create(WHERE + "/?serverSelectionTimeoutMS=200");
        Transactions work = work(client);
        try {
            Throwable failure = catchThrowable(() -> work.run("reading table 't'",
                    () -> work.catalog("tables").find().first()));
            assertThat(failure).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                assertThat(e.getMessage()).contains("MongoDB did not answer").doesNotContain("is closed");
            });
        } finally {
            work.close();
        }
    }

    private static void refused(ThrowingCallable call, String what) {
        assertThat(catchThrowable(call)).as(what).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).as(what + ": " + e.getMessage()).isEqualTo(ErrorReason.TRANSIENT);
            assertThat(e.getMessage()).as(what).isEqualTo("the MongoDB storage at " + WHERE
                    + " is closed (MongoStorage.close): nothing is read or written after it");
        });
    }
}

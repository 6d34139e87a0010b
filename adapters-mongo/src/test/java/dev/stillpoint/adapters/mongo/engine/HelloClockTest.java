package dev.stillpoint.adapters.mongo.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.core.CatalogClock;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/**
 * [E5] The MongoDB engine tells the time by the server's clock: a {@code hello} reply's {@code localTime}, taken
 * at the midpoint of its round trip (the reply's shape as MongoDB's manual shows the hello command's output).
 * Runs without a server; the live opening that reads it is MongoLiveTest's.
 */
class HelloClockTest {

    private static final Instant BEFORE = Instant.parse("2026-12-07T10:00:00Z");
    private static final Instant AFTER = BEFORE.plusMillis(40);
    private static final TimeSource LOCAL = new TimeSource() {
        @Override
        public Instant now() {
            return BEFORE;
        }

        @Override
        public long monotonicNanos() {
            return 0;
        }
    };

    @Test
    void theServersLocalTimeSetsTheClock() {
        BsonDocument hello = new BsonDocument("isWritablePrimary", new BsonString("true"))
                .append("localTime", new BsonDateTime(Instant.parse("2026-12-07T09:58:00.020Z").toEpochMilli()))
                .append("ok", new BsonDouble(1));
        CatalogClock clock = MongoEngine.catalogClock(LOCAL, BEFORE, hello, AFTER);
        assertThat(clock.offset()).as("this host runs two minutes ahead of the server").isEqualTo(Duration.ofMinutes(-2));
        assertThat(clock.now()).isEqualTo(Instant.parse("2026-12-07T09:58:00Z"));
    }

    @Test
    void aReplyWithoutLocalTimeLeavesTheLocalClock() {
        CatalogClock clock = MongoEngine.catalogClock(LOCAL, BEFORE, new BsonDocument("ok", new BsonDouble(1)), AFTER);
        assertThat(clock.offset()).isEqualTo(Duration.ZERO);
        assertThat(clock.now()).isEqualTo(BEFORE);
    }
}

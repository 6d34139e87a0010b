package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.properties.closing.ClosedStorageAnswers;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a closed SQLite storage answers ({@link ClosedStorageAnswers}): TRANSIENT, saying it is closed [D10, R6].
 * Found from outside: calls after close failed INTERNAL with the driver's words for a closed connection
 * ("database connection closed", "statement is not executing"), a stream read on past it "stmt pointer is closed".
 */
class ClosedStorageCallsTest {

    private static Item item(int i) {
        return Item.of(Map.of("pk", AttributeValue.s(String.format("k%05d", i)), "sk", AttributeValue.n(Integer.toString(i)),
                "pad", AttributeValue.s("x".repeat(300))));
    }

    /** A new file's storage, told {@code answers}' events, with table 'orders' of {@code n} items. */
    private static SqliteStorage ordersOf(int n, ClosedStorageAnswers answers) throws InterruptedException {
        SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile("closed"))
                .withControlPlaneDelay(Duration.ZERO).withEvents(answers.events()));
        storage.tables().createTable(SqliteStorageTest.orders("orders"));
        SqliteStorageTest.awaitActive(storage, "orders");
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(SqliteStorageTest.ACCOUNT, "orders", item(i));
        }
        return storage;
    }

    @Test
    void d10_callsAfterCloseAndAStreamReadOnPastItAreRefusedSayingTheStorageIsClosed() throws Exception {
        ClosedStorageAnswers answers = new ClosedStorageAnswers();
        int n = 3_500;   // four pages of 1,000
        SqliteStorage storage = ordersOf(n, answers);
        answers.check(storage, SqliteStorageTest.ACCOUNT, "orders", n, item(1), "its storage was closed");
    }

    /** A segment of {@code export -j} read on past the close said "stmt pointer is closed" (INTERNAL) before [B2]. */
    @Test
    void d10_aSegmentReadOnPastTheCloseIsRefusedSayingTheStorageIsClosed() throws Exception {
        ClosedStorageAnswers answers = new ClosedStorageAnswers();
        int n = 7_000;   // two segments of four pages of 1,000
        SqliteStorage storage = ordersOf(n, answers);
        answers.checkSegments(storage, SqliteStorageTest.ACCOUNT, "orders", n, "its storage was closed");
    }
}

package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.properties.closing.ClosedStorageAnswers;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a closed PostgreSQL storage answers, both layouts ({@link ClosedStorageAnswers}): TRANSIENT, saying it is
 * closed [D10, R6]. Found from outside: calls said HikariCP's "has been closed" as INTERNAL, and the stream's
 * next page "the connection to PostgreSQL was lost; the database may be unreachable or restarting" while the
 * database was fine.
 */
class PostgresClosedStorageTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("closedcalls");

    /** A new hash-keyed table of {@code n} items; its name. */
    private static String filled(PostgresStorage storage, int n) {
        String name = Tables.uniqueName("closed");
        Tables.createActive(storage.tables(), Tables.hashOnly(name));
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, name, Tables.hashItem(String.format("k%05d", i)));
        }
        return name;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void d10_callsAfterCloseAndAStreamReadOnPastItAreRefusedSayingTheStorageIsClosed(Layout layout) throws Exception {
        ClosedStorageAnswers answers = new ClosedStorageAnswers();
        PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withEvents(answers.events()));
        int n = 3_500;   // four pages of 1,000
        String name = filled(storage, n);
        answers.check(storage, ACCOUNT, name, n, Tables.hashItem("late"), "is closed (PostgresStorage.close)");
    }

    /** Each segment of {@code export -j} is a connection of its own: read on past the close, it says so too [B2]. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void d10_aSegmentReadOnPastTheCloseIsRefusedSayingTheStorageIsClosed(Layout layout) throws Exception {
        ClosedStorageAnswers answers = new ClosedStorageAnswers();
        PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withEvents(answers.events()));
        int n = 7_000;   // two segments of four pages of 1,000
        String name = filled(storage, n);
        answers.checkSegments(storage, ACCOUNT, name, n, "is closed (PostgresStorage.close)");
    }
}

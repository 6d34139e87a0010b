package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.StorageEvents;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a closed PostgreSQL storage answers, both layouts: every call after close, and a snapshot stream read on
 * past its close, fails TRANSIENT saying its storage is closed [D10, R6]. Found from outside: calls said
 * HikariCP's "has been closed" as INTERNAL, and the stream's next page said "the connection to PostgreSQL was
 * lost; the database may be unreachable or restarting" while the database was fine. The pages read before the
 * close are still delivered.
 */
class PostgresClosedStorageTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("closedcalls");

    private static void assertClosedRefusal(ThrowingCallable call, String what, String saying) {
        assertThat(catchThrowable(call)).as(what).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).as(what + ": " + e.getMessage()).isEqualTo(ErrorReason.TRANSIENT);
            assertThat(e.getMessage()).as(what).contains(saying).doesNotContain("unreachable");
        });
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void d10_callsAfterCloseAndAStreamReadOnPastItAreRefusedSayingTheStorageIsClosed(Layout layout) throws Exception {
        // The second page read means the read-ahead has nothing left in flight when the storage closes.
        CountDownLatch twoPages = new CountDownLatch(2);
        StorageEvents pages = new StorageEvents() {
            @Override
            public void pageStreamed(Page page) {
                twoPages.countDown();
            }
        };
        PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withEvents(pages));
        String name = Tables.uniqueName("closed");
        Tables.createActive(storage.tables(), Tables.hashOnly(name));
        int n = 3_500;   // four pages of 1,000
        for (int i = 0; i < n; i++) {
            storage.tables().putItem(ACCOUNT, name, Tables.hashItem("k" + i));
        }
        TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, name);
        ItemStream items = snapshot.items();
        int read = 0;
        while (read < 10 && items.hasNext()) {
            items.next();
            read++;
        }
        assertThat(twoPages.await(30, TimeUnit.SECONDS)).as("the first page and the one read ahead fetched").isTrue();

        storage.close();

        int[] delivered = {read};
        assertClosedRefusal(() -> {
            while (items.hasNext()) {
                items.next();
                delivered[0]++;
            }
        }, "the stream read on past the close", "is closed (PostgresStorage.close)");
        assertThat(delivered[0]).as("the pages read before the close, delivered; not the whole table")
                .isGreaterThan(10).isLessThan(n);
        snapshot.close();

        assertClosedRefusal(() -> storage.tables().putItem(ACCOUNT, name, Tables.hashItem("late")),
                "PutItem after close", "is closed");
        assertClosedRefusal(() -> storage.tables().describeTable(ACCOUNT, name), "DescribeTable after close", "is closed");
        assertClosedRefusal(() -> storage.snapshots().openTableSnapshot(ACCOUNT, name),
                "a snapshot opened after close", "its storage is closed");
    }
}

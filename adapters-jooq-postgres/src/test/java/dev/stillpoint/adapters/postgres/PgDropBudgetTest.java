package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Sessions;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The drop budget's edge [P7]: each DROP waits at most for what is left of the budget, set as
 * {@code lock_timeout} in milliseconds, and PostgreSQL reads {@code lock_timeout = 0} as no timeout at
 * all. So with less than a millisecond left no DROP may start: the attempt ends as a lock-wait failure
 * (which DeleteTable defers) and every relation stays. A manual clock stands still on the test's thread,
 * so the boundary (0 ms left) is hit exactly, not by chance.
 */
class PgDropBudgetTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("dropbudget");

    /** The system clock, except that the monotonic clock stands still on the thread that froze it. */
    private static final class FrozenOnOneThread implements TimeSource {
        private volatile Thread frozen;
        private volatile long at;

        void freezeHere() {
            at = System.nanoTime();
            frozen = Thread.currentThread();
        }

        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public long monotonicNanos() {
            return Thread.currentThread() == frozen ? at : System.nanoTime();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void p7_withNoMillisecondOfTheBudgetLeftNoDropRuns(Layout layout) throws Exception {
        FrozenOnOneThread clock = new FrozenOnOneThread();
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout).withTime(clock))) {
            TableDescription d = Tables.createActive(storage.tables(), Tables.withIndexes(Tables.uniqueName("budget")));
            int relations = Sessions.relationsOf(databases, layout, d.tableId()).size();
            assertThat(relations).as("the table's base, GSI and LSI relations").isEqualTo(3);

            clock.freezeHere();
            DropResult result;
            try (DropAttempt attempt = storage.dropPort().beginDrop(ACCOUNT, d.tableName())) {
                assertThat(attempt.probeHolders()).as("nobody holds the table's relations").isFalse();
                // The deadline is now + 0, and the clock does not move: exactly 0 ms are left at the first DROP.
                result = attempt.dropRelations(Duration.ZERO);
                attempt.rollBackDrops();
            }

            assertThat(result.outcome())
                    .as("[P7] with 0 ms of the drop budget left no DROP runs (lock_timeout = 0 would wait without "
                            + "limit): a lock-wait failure, not %s", result)
                    .isEqualTo(DropOutcome.LOCK_WAIT_FAILED);
            assertThat(result.detail()).as("[P7] the failure names the spent budget").contains("drop budget was spent");
            assertThat(Sessions.relationsOf(databases, layout, d.tableId()))
                    .as("[P7] every relation is still there").hasSize(relations);
        }
    }
}

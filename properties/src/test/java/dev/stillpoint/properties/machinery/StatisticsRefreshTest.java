package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.core.lifecycle.StatisticsRefresh;
import dev.stillpoint.ports.out.TableStatistics;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * ItemCount and TableSizeBytes are kept fresh (issue 10: they were a constant 0 on SQLite): the first
 * pass recounts, later passes recount once the interval has passed, and a failed recount is retried
 * on the very next pass instead of waiting out another interval.
 */
class StatisticsRefreshTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T00:00:00Z"));
    private final TimeSource clock = new TimeSource() {
        @Override
        public Instant now() {
            return now.get();
        }

        @Override
        public long monotonicNanos() {
            return 0;
        }
    };

    @Example
    void theFirstPassRecountsAndLaterOnesOnlyOnceTheIntervalHasPassed() {
        AtomicInteger recounts = new AtomicInteger();
        StatisticsRefresh refresh = new StatisticsRefresh(new FakeStatistics(recounts::incrementAndGet), clock, Duration.ofMinutes(5));
        refresh.runIfDue();
        assertThat(recounts).as("the first pass recounts").hasValue(1);
        now.set(now.get().plus(Duration.ofMinutes(4)));
        refresh.runIfDue();
        assertThat(recounts).as("no recount before the interval has passed").hasValue(1);
        now.set(now.get().plus(Duration.ofMinutes(1)));
        refresh.runIfDue();
        assertThat(recounts).as("a recount once it has").hasValue(2);
    }

    @Example
    void aFailedRecountIsRetriedOnTheNextPass() {
        AtomicInteger attempts = new AtomicInteger();
        StatisticsRefresh refresh = new StatisticsRefresh(new FakeStatistics(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new StorageException(ErrorReason.TRANSIENT, "database unreachable");
            }
        }), clock, Duration.ofMinutes(5));
        refresh.runIfDue();
        refresh.runIfDue();
        assertThat(attempts).as("the failed first recount is retried on the next pass").hasValue(2);
        refresh.runIfDue();
        assertThat(attempts).as("and then waits out the interval").hasValue(2);
    }

    // Found from outside: an index relation dropped by hand made the first table's count fail, and every
    // table listed after it kept its old counts (0) for as long as the damage stayed.
    @Example
    void aTableThatCannotBeCountedLeavesTheOthersCountedAndIsRetriedByTheNextRecount() {
        AtomicInteger failedCounts = new AtomicInteger();
        FakeStatistics statistics = new FakeStatistics(() -> { }) {
            @Override
            public Counts count(Counted table) {
                if (((Table) table).name().equals("damaged")) {
                    failedCounts.incrementAndGet();
                    throw new StorageException(ErrorReason.INTERNAL, "relation \"d_x__gsi__0\" does not exist");
                }
                return super.count(table);
            }
        };
        statistics.tables.add(new FakeStatistics.Table("damaged", new TableStatistics.Counts(0, 0), new TableStatistics.Counts(1, 10)));
        statistics.tables.add(new FakeStatistics.Table("after", new TableStatistics.Counts(0, 0), new TableStatistics.Counts(2, 20)));
        StatisticsRefresh refresh = new StatisticsRefresh(statistics, clock, Duration.ofMinutes(5));
        refresh.runIfDue();
        assertThat(statistics.records).as("the table after the damaged one is counted and recorded")
                .containsExactly("after 2 items 20 bytes");
        refresh.runIfDue();
        assertThat(failedCounts).as("the damaged table waits for the next recount, not the next pass").hasValue(1);
        now.set(now.get().plus(Duration.ofMinutes(5)));
        refresh.runIfDue();
        assertThat(failedCounts).as("the next recount tries it again").hasValue(2);
    }

    @Example
    void theIntervalMustBePositive() {
        assertThatThrownBy(() -> new StatisticsRefresh(new FakeStatistics(() -> { }), clock, Duration.ZERO))
                .isInstanceOf(StorageException.class).hasMessageContaining("PT0S");
    }

    // The recount is the core's: every ACTIVE table counted, only a table whose counts changed recorded
    // (a recount that finds nothing new writes nothing).
    @Example
    void aRecountRecordsExactlyTheTablesWhoseCountsChanged() {
        FakeStatistics statistics = new FakeStatistics(() -> { });
        statistics.tables.add(new FakeStatistics.Table("same", new TableStatistics.Counts(3, 30), new TableStatistics.Counts(3, 30)));
        statistics.tables.add(new FakeStatistics.Table("grown", new TableStatistics.Counts(3, 30), new TableStatistics.Counts(4, 41)));
        statistics.tables.add(new FakeStatistics.Table("resized", new TableStatistics.Counts(3, 30), new TableStatistics.Counts(3, 29)));
        new StatisticsRefresh(statistics, clock, Duration.ofMinutes(5)).runIfDue();
        assertThat(statistics.records).as("only the changed tables' counts are written")
                .containsExactly("grown 4 items 41 bytes", "resized 3 items 29 bytes");
    }
}

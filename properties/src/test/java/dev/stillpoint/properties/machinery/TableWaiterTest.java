package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.TableService;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Waiting for ACTIVE, as an embedding server does after CreateTable [D4]: every answer other than
 * "still CREATING" ends the wait at once, with the reason a caller can act on.
 */
class TableWaiterTest {

    private final InMemoryTables storage = new InMemoryTables();
    private final TableService tables = new TableService(storage, new ItemWrites(storage),
            request -> request.describe("id", "arn", Instant.EPOCH),
            new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));

    // D4: a table turning ACTIVE while waited on is returned ACTIVE; the wait polls DescribeTable.
    @Test
    void d4_aCreatingTableIsReturnedOnceActive() {
        TableDescription creating = Descriptions.active("acct", "Orders").withStatus(TableStatus.CREATING);
        storage.tables.put("Orders", creating);
        InMemoryTables turning = new InMemoryTables() {
            private int reads;

            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                // The third read finds the table activated, as the control plane's pass would leave it.
                return Optional.of(++reads < 3 ? creating : creating.withStatus(TableStatus.ACTIVE));
            }
        };
        TableService service = new TableService(turning, new ItemWrites(turning), request -> creating,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        assertThat(TableWaiter.awaitActive(service, "acct", "Orders", Duration.ofSeconds(30)).status())
                .as("[D4] ACTIVE once the pass activated it").isEqualTo(TableStatus.ACTIVE);
    }

    // D4: the wait pauses between two polls (20 ms doubling to 250 ms), it never spins on DescribeTable:
    // a table still CREATING through a 300 ms wait is described a handful of times, never hundreds.
    @Test
    void d4_theWaitPausesBetweenPolls() {
        TableDescription creating = Descriptions.active("acct", "Orders").withStatus(TableStatus.CREATING);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        InMemoryTables counting = new InMemoryTables() {
            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                reads.incrementAndGet();
                return Optional.of(creating);
            }
        };
        TableService service = new TableService(counting, new ItemWrites(counting), request -> creating,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        assertThatThrownBy(() -> TableWaiter.awaitActive(service, "acct", "Orders", Duration.ofMillis(300)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT));
        assertThat(reads.get()).as("[D4] polls with a pause, not a spin (about 5 in 300 ms)").isBetween(1, 20);
    }

    // D4: the pause grows to 250 ms and no further, so a table activated while waited on is seen within
    // about a quarter of a second, however long it stayed CREATING: here it turns ACTIVE 2 s after the
    // first poll, and no two polls are more than 750 ms apart (3x the longest pause, for a busy machine).
    // Mutant recorded: the cap's comparison negated (the pause doubling without end) fails the gap.
    @Test
    void d4_thePauseGrowsToAQuarterSecondAndNoFurther() {
        TableDescription creating = Descriptions.active("acct", "Orders").withStatus(TableStatus.CREATING);
        java.util.List<Long> polls = new java.util.ArrayList<>();
        InMemoryTables turning = new InMemoryTables() {
            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                polls.add(System.nanoTime());
                boolean active = polls.get(polls.size() - 1) - polls.get(0) >= Duration.ofSeconds(2).toNanos();
                return Optional.of(active ? creating.withStatus(TableStatus.ACTIVE) : creating);
            }
        };
        TableService service = new TableService(turning, new ItemWrites(turning), request -> creating,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        assertThat(TableWaiter.awaitActive(service, "acct", "Orders", Duration.ofSeconds(30)).status())
                .isEqualTo(TableStatus.ACTIVE);
        long longestGap = 0;
        for (int i = 1; i < polls.size(); i++) {
            longestGap = Math.max(longestGap, polls.get(i) - polls.get(i - 1));
        }
        assertThat(Duration.ofNanos(longestGap)).as("[D4] the pause stops growing at 250 ms: the longest gap between polls")
                .isLessThanOrEqualTo(Duration.ofMillis(750));
    }

    // D4, D10: DELETING never becomes ACTIVE (ResourceInUse at once); a missing table is not found.
    @Test
    void d4_deletingOrMissingEndsTheWaitAtOnce() {
        storage.tables.put("Old", Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING));
        long started = System.nanoTime();
        assertThatThrownBy(() -> TableWaiter.awaitActive(tables, "acct", "Old", Duration.ofMinutes(5)))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as("[D4] DELETING is in use").isEqualTo(ErrorReason.RESOURCE_IN_USE);
                    assertThat(e.getMessage()).contains("Old");
                });
        assertThatThrownBy(() -> TableWaiter.awaitActive(tables, "acct", "Gone", Duration.ofMinutes(5)))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("[D4] no wait for either answer")
                .isLessThan(Duration.ofMinutes(1));
    }

    // D10: still CREATING past the timeout is Transient (retryable), naming the table and the wait.
    @Test
    void d10_stillCreatingAfterTheTimeoutIsTransientNamingTheWait() {
        storage.tables.put("Slow", Descriptions.active("acct", "Slow").withStatus(TableStatus.CREATING));
        assertThatThrownBy(() -> TableWaiter.awaitActive(tables, "acct", "Slow", Duration.ofMillis(60)))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                    assertThat(e.getMessage()).contains("Slow").contains("60 ms").contains("CREATING");
                });
        assertThat(storage.calls.stream().filter(c -> c.equals("describe Slow")).count())
                .as("polled more than once within the timeout").isGreaterThan(1);
    }

    // D10: an interrupted wait ends Transient at once and keeps the thread's interrupt.
    @Test
    void d10_anInterruptedWaitEndsAndKeepsTheInterrupt() {
        storage.tables.put("Slow", Descriptions.active("acct", "Slow").withStatus(TableStatus.CREATING));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> TableWaiter.awaitActive(tables, "acct", "Slow", Duration.ofMinutes(5)))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                        assertThat(e.getMessage()).contains("interrupted");
                    });
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        }
    }

    // D5, D8: a table deleted while waited on ends the wait once DescribeTable answers TableNotFound;
    // the wait polls with a pause (about 5 polls in 300 ms, never hundreds).
    @Test
    void d5_aTableGoneWhileWaitedOnEndsTheDeleteWait() {
        TableDescription deleting = Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        InMemoryTables going = new InMemoryTables() {
            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                // The third read finds the table gone, as the deferred drop would leave it.
                return reads.incrementAndGet() < 3 ? Optional.of(deleting) : Optional.empty();
            }
        };
        TableService service = new TableService(going, new ItemWrites(going), request -> deleting,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        TableWaiter.awaitDeleted(service, "acct", "Old", Duration.ofSeconds(30));
        assertThat(reads.get()).as("[D5] the wait ended at the first TableNotFound").isEqualTo(3);
    }

    // D10: still there past the timeout is Transient, naming the table, its status and the wait; polled
    // with a pause, not a spin.
    @Test
    void d10_stillThereAfterTheTimeoutIsTransientNamingTheDeleteWait() {
        storage.tables.put("Old", Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING));
        assertThatThrownBy(() -> TableWaiter.awaitDeleted(tables, "acct", "Old", Duration.ofMillis(300)))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                    assertThat(e.getMessage()).isEqualTo("table 'Old' is still DELETING after waiting 300 ms for it to be deleted");
                });
        assertThat(storage.calls.stream().filter(c -> c.equals("describe Old")).count())
                .as("[D10] polled more than once, with a pause between polls").isBetween(2L, 20L);
    }

    // D5: the pause grows to 250 ms and no further: a table gone 2 s after the first poll is seen with no
    // two polls more than 750 ms apart (3x the longest pause, for a busy machine).
    @Test
    void d5_theDeleteWaitsPauseGrowsToAQuarterSecondAndNoFurther() {
        TableDescription deleting = Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING);
        java.util.List<Long> polls = new java.util.ArrayList<>();
        InMemoryTables going = new InMemoryTables() {
            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                polls.add(System.nanoTime());
                boolean gone = polls.get(polls.size() - 1) - polls.get(0) >= Duration.ofSeconds(2).toNanos();
                return gone ? Optional.empty() : Optional.of(deleting);
            }
        };
        TableService service = new TableService(going, new ItemWrites(going), request -> deleting,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        TableWaiter.awaitDeleted(service, "acct", "Old", Duration.ofSeconds(30));
        long longestGap = 0;
        for (int i = 1; i < polls.size(); i++) {
            longestGap = Math.max(longestGap, polls.get(i) - polls.get(i - 1));
        }
        assertThat(Duration.ofNanos(longestGap)).as("[D5] the longest gap between polls")
                .isLessThanOrEqualTo(Duration.ofMillis(750));
        assertThat(polls.size()).as("[D5] a pause between polls, not a spin").isBetween(3, 40);
    }

    // D10: an interrupted delete wait ends Transient at once and keeps the thread's interrupt; any answer
    // but TableNotFound (here a Transient DescribeTable) ends it as it came.
    @Test
    void d10_anInterruptedDeleteWaitEndsAndKeepsTheInterruptAndOtherFailuresPassThrough() {
        storage.tables.put("Old", Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> TableWaiter.awaitDeleted(tables, "acct", "Old", Duration.ofMinutes(5)))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                        assertThat(e.getMessage()).isEqualTo("waiting for table 'Old' to be deleted was interrupted");
                    });
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        }
        InMemoryTables failing = new InMemoryTables() {
            @Override
            public Optional<TableDescription> describe(String accountId, String tableName) {
                throw new StorageException(ErrorReason.TRANSIENT, "database unreachable");
            }
        };
        TableService service = new TableService(failing, new ItemWrites(failing), request -> null,
                new TableDeletion(new FakeCatalog(), TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));
        assertThatThrownBy(() -> TableWaiter.awaitDeleted(service, "acct", "Old", Duration.ofMinutes(5)))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.getMessage()).isEqualTo("database unreachable"));
    }
}

package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.lifecycle.TableCreation;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The shared DeleteTable orchestration over a fake catalog [D5, P6, P7]: the order of its calls
 * for every combination of delay, probe answer and drop outcome.
 */
class TableDeletionProperties {

    private static final String T = "orders";

    // D5, P7: the row is removed only after the drop succeeded, in the attempt that commits last;
    // a holder or a lock-wait failure defers with the row kept; DeleteTable always answers DELETING.
    @Property
    void d5_deleteTableCallOrder(@ForAll("delays") Duration delay, @ForAll boolean held,
                                 @ForAll("outcomes") DropOutcome outcome) {
        FakeCatalog catalog = new FakeCatalog();
        catalog.delay = delay;
        catalog.held = t -> held;
        catalog.dropAnswer = t -> new DropResult(outcome, outcome == DropOutcome.DROPPED ? "" : "scripted");
        catalog.rows.put(T, new TableRecord(Descriptions.active("acct", T), new TableState.Active()));
        AtomicInteger wakes = new AtomicInteger();
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, wakes::incrementAndGet, () -> delay);

        assertThat(deletion.deleteTable("acct", T).status()).isEqualTo(TableStatus.DELETING);

        List<String> calls = catalog.calls;
        if (delay.compareTo(Duration.ofSeconds(1)) >= 0) {
            assertThat(calls).containsExactly("begin " + T, "mark-deleting " + T + " SCHEDULED", "commit " + T, "close " + T);
            assertThat(catalog.rows.get(T).state()).isInstanceOf(TableState.Deleting.class);
        } else if (held) {
            assertThat(calls).containsExactly("begin " + T, "probe " + T, "mark-deleting " + T + " DEFERRED",
                    "commit " + T, "close " + T);
            assertThat(wakes.get()).isEqualTo(1);
        } else if (outcome == DropOutcome.DROPPED) {
            assertThat(calls).containsExactly("begin " + T, "probe " + T, "drop " + T, "remove-row " + T,
                    "commit " + T, "close " + T);
            assertThat(catalog.rows).doesNotContainKey(T);
        } else {
            String retry = outcome == DropOutcome.LOCK_WAIT_FAILED ? "DEFERRED" : "FAILED";
            assertThat(calls).containsExactly("begin " + T, "probe " + T, "drop " + T, "rollback-drops " + T,
                    "mark-deleting " + T + " " + retry, "commit " + T, "close " + T);
            assertThat(catalog.rows.get(T).state()).isInstanceOfSatisfying(TableState.Deleting.class,
                    d -> assertThat(d.retry().name()).isEqualTo(retry));
            assertThat(wakes.get()).isEqualTo(outcome == DropOutcome.LOCK_WAIT_FAILED ? 1 : 0);
        }
    }

    // D5, Q5: DeleteTable of a DELETING table returns its description and changes nothing.
    @Example
    void d5_deleteOfDeletingChangesNothing() {
        FakeCatalog catalog = new FakeCatalog();
        TableState.Deleting deleting = new TableState.Deleting(java.time.Instant.now().plusSeconds(30), TableState.DropRetry.SCHEDULED);
        TableRecord row = new TableRecord(Descriptions.active("acct", T).withStatus(TableStatus.DELETING), deleting);
        catalog.rows.put(T, row);
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        assertThat(deletion.deleteTable("acct", T)).isEqualTo(row.description());
        assertThat(catalog.rows.get(T)).isEqualTo(row);
        assertThat(catalog.calls).containsExactly("begin " + T, "commit " + T, "close " + T);
    }

    // D5: CreateTable of a DELETING name is ResourceInUse until it is gone; then it succeeds.
    @Example
    void d5_createOfDeletingNameRefusedUntilGone() {
        FakeCatalog catalog = new FakeCatalog();
        catalog.held = t -> true;
        catalog.rows.put(T, new TableRecord(Descriptions.active("acct", T), new TableState.Active()));
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        TableCreation creation = new TableCreation(catalog, TimeSource.SYSTEM, () -> { });
        deletion.deleteTable("acct", T);
        assertThatThrownBy(() -> creation.createTable(Descriptions.request("acct", T)))
                .isInstanceOfSatisfying(StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE))
                .hasMessageContaining(T);
        catalog.held = t -> false;
        assertThat(deletion.retryDrop("acct", T)).isEqualTo(TableDeletion.Result.DROPPED);
        assertThat(creation.createTable(Descriptions.request("acct", T)).status()).isEqualTo(TableStatus.CREATING);
    }

    // D5: a caller who gives up while the drop runs leaves the table ACTIVE with its data.
    @Example
    void d5_callerGivingUpKeepsTheTable() {
        FakeCatalog catalog = new FakeCatalog();
        catalog.dropAnswer = t -> {
            Thread.currentThread().interrupt();
            return DropResult.DROPPED;
        };
        TableRecord row = new TableRecord(Descriptions.active("acct", T), new TableState.Active());
        catalog.rows.put(T, row);
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        assertThatThrownBy(() -> deletion.deleteTable("acct", T)).isInstanceOf(StorageException.class)
                .hasMessageContaining("cancelled");
        assertThat(Thread.interrupted()).isTrue();
        assertThat(catalog.rows.get(T)).isEqualTo(row);
        assertThat(catalog.calls).doesNotContain("commit " + T).contains("rollback-drops " + T);
    }

    @Provide
    Arbitrary<Duration> delays() {
        return Arbitraries.of(Duration.ZERO, Duration.ofMillis(250), Duration.ofMillis(999), Duration.ofSeconds(1),
                Duration.ofSeconds(5));
    }

    @Provide
    Arbitrary<DropOutcome> outcomes() {
        return Arbitraries.of(DropOutcome.class);
    }
}

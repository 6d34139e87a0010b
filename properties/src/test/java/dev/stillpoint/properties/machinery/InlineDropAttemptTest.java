package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.core.lifecycle.InlineDropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drop attempt of backends without relation locks (MongoDB, Cassandra) [C2]: never held, the drop
 * done inline and reported DROPPED, and never left DELETING.
 */
class InlineDropAttemptTest {

    private final List<String> dropped = new ArrayList<>();
    private final InlineDropAttempt attempt = new InlineDropAttempt(
            new TableRecord(Descriptions.active("acct", "Orders"), new TableState.Active()),
            () -> dropped.add("Orders"), () -> dropped.add("row"));

    // C2: the probe answers free, the drop runs the backend's drops and reports DROPPED.
    @Test
    void c2_anInlineDropIsNeverHeldAndDropsAtOnce() {
        assertThat(attempt.probeHolders()).as("[C2] no holder can exist without relation locks").isFalse();
        DropResult result = attempt.dropRelations(Duration.ofSeconds(1));
        assertThat(result.outcome()).as("[C2] dropped inline").isEqualTo(TableEvent.DropOutcome.DROPPED);
        assertThat(dropped).as("[C2] the backend's drops ran").containsExactly("Orders");
    }

    // C2: such a table is never left DELETING: asking is an internal error naming the table.
    @Test
    void c2_anInlineDropCannotLeaveTheTableDeleting() {
        assertThatThrownBy(() -> attempt.markDeleting(new TableState.Deleting(Instant.EPOCH, TableState.DropRetry.DEFERRED)))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                    assertThat(e.getMessage()).contains("'Orders'");
                });
    }
}

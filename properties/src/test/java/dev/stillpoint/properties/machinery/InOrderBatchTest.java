package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.core.InOrderBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-order rule of a backend without transactions [R7]: never a partial batch reported as complete. */
class InOrderBatchTest {

    private static ItemChange delete(String pk) {
        return new ItemChange.Delete(Key.of(AttributeValue.s(pk)), new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s(pk))));
    }

    private static Map<String, List<ItemChange>> batch() {
        Map<String, List<ItemChange>> changes = new LinkedHashMap<>();
        changes.put("first_table", List.of(delete("a"), delete("b")));
        changes.put("second_table", List.of(delete("c"), delete("d")));
        return changes;
    }

    @Test
    void everyChangeAppliedInOrder_nothingUnprocessed() {
        List<String> applied = new ArrayList<>();
        Map<String, List<ItemChange>> rest = InOrderBatch.apply(batch(), (t, c) -> applied.add(t + ":" + c.key().partition()));
        assertThat(rest).isEmpty();
        assertThat(applied).hasSize(4).first().asString().startsWith("first_table");
    }

    @Test
    void aFailureAfterSomeWereAppliedReturnsTheFailedChangeAndEveryLaterOne() {
        List<ItemChange> applied = new ArrayList<>();
        Map<String, List<ItemChange>> rest = InOrderBatch.apply(batch(), (t, c) -> {
            if (c.equals(delete("b"))) {
                throw new StorageException(ErrorReason.TRANSIENT, "lost");
            }
            applied.add(c);
        });
        assertThat(applied).containsExactly(delete("a"));
        assertThat(rest).containsExactly(Map.entry("first_table", List.of(delete("b"))),
                Map.entry("second_table", List.of(delete("c"), delete("d"))));
    }

    @Test
    void aFailureOfTheFirstChangeIsThrown() {
        assertThatThrownBy(() -> InOrderBatch.apply(batch(), (t, c) -> {
            throw new StorageException(ErrorReason.TRANSIENT, "lost");
        })).isInstanceOf(StorageException.class).hasMessage("lost");
    }
}

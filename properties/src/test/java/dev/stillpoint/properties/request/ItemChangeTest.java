package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.request.WriteRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A checked put of a batch hands back, when a backend without atomic batches leaves it unapplied, the request
 * it came from [R7]: the same item, as BatchWriteItem's UnprocessedItems shows it.
 */
class ItemChangeTest {

    @Test
    void r7_aPutsRequestIsThePutOfItsItem() {
        Item item = Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.n("1")));
        ItemChange.Put put = new ItemChange.Put(new ItemWrite(Key.of(AttributeValue.s("a")), item, Map.of()));
        assertThat(put.request()).isEqualTo(new WriteRequest.Put(item));
        assertThat(put.key()).isEqualTo(Key.of(AttributeValue.s("a")));
    }
}

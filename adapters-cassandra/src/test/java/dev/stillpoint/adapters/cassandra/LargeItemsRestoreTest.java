package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A restore of items near DynamoDB's 400 KB limit completes on Cassandra [B1, S7]: its load's count of the keys
 * it wrote, and the completion's count of items and bytes, read in pages sized by bytes ({@link SizedRows}).
 * Found from outside: `restore --cassandra` of 200 items of 395 KB wrote every item, then its key count asked
 * for pages of 500 rows; the node reads each whole row even for its key, and the 256 MiB node died of an
 * OutOfMemoryError (the load then failed "no node available"). Reverting the key count to the driver's pages
 * of 500 kills the test node again (MUTATION.md).
 */
class LargeItemsRestoreTest {

    private static final String ACCOUNT = "acct";

    @Test
    void aRestoreOfItemsNearTheSizeLimitCompletesAndCountsThem() {
        int count = 200;
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(Item.of(Map.of("pk", AttributeValue.s("k" + i),
                    "v", AttributeValue.s(Character.toString('a' + i % 26).repeat(395_000)))));
        }
        CassandraStorage storage = TestCassandra.open();
        try {
            String table = TestCassandra.tableName("large");
            TableDescription done;
            try (RestoreLoad load = storage.restores().begin(CreateTableRequest.builder(ACCOUNT, table)
                    .partitionKey("pk", ScalarType.S).build(), new RestoreOrigin(Optional.empty(), Instant.now()))) {
                for (int from = 0; from < count; from += 10) {
                    load.write(items.subList(from, from + 10));
                }
                done = load.complete();
            }

            assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
            TableDescription described = storage.tables().describeTable(ACCOUNT, table);
            assertThat(described.itemCount()).as("ItemCount counted as the restore completed").isEqualTo(count);
            assertThat(described.tableSizeBytes()).as("TableSizeBytes: the items' stored text")
                    .isGreaterThanOrEqualTo(count * 395_000L);
        } finally {
            TestCassandra.dropAndClose(storage);
        }
    }
}

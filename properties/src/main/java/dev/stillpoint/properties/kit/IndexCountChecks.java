package dev.stillpoint.properties.kit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * DescribeTable's counts of a table's secondary indexes, for an adapter's own test of its statistics pass:
 * a table of {@value #ITEMS} items with a sparse GSI (only {@value #WITH_GSI_KEY} items carry its key) and an
 * LSI ({@value #WITH_LSI_KEY} carry its sort key). After the pass, each index's ItemCount is the number of items
 * it holds, not the table's, and its IndexSizeBytes lies between the bytes of its entries' text and the table's
 * size. DynamoDB reports both for every index, refreshed about every six hours (API reference,
 * GlobalSecondaryIndexDescription and LocalSecondaryIndexDescription: "ItemCount", "IndexSizeBytes").
 */
public final class IndexCountChecks {

    /** The table's items. */
    public static final int ITEMS = 7;
    /** The items carrying the GSI's key ({@code color}): the even ones. */
    public static final int WITH_GSI_KEY = 4;
    /** The items carrying the LSI's sort key ({@code rank}): the first five. */
    public static final int WITH_LSI_KEY = 5;
    /** The GSI's name. */
    public static final String GSI = "byColor";
    /** The LSI's name. */
    public static final String LSI = "byRank";

    /** Each item's filler, so every entry takes at least this many bytes. */
    private static final int FILLER = 100;

    private IndexCountChecks() {
    }

    /**
     * The table: {@code pk} (S) and {@code sk} (N), the GSI on {@code color} (S), the LSI on {@code rank} (N),
     * both projecting every attribute.
     *
     * @param accountId the account
     * @param tableName the table's name
     * @return the request
     */
    public static CreateTableRequest table(String accountId, String tableName) {
        return CreateTableRequest.builder(accountId, tableName).partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).globalIndex(GSI, "color", ScalarType.S, Projection.all())
                .localIndex(LSI, "rank", ScalarType.N, Projection.all()).build();
    }

    /**
     * Writes the {@value #ITEMS} items to the ACTIVE table.
     *
     * @param tables    the table operations of the adapter under test
     * @param accountId the account
     * @param tableName the table's name
     */
    public static void write(TableOperations tables, String accountId, String tableName) {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("pk", AttributeValue.s("p" + i % 2));
            item.put("sk", AttributeValue.n(Integer.toString(i)));
            item.put("filler", AttributeValue.s("x".repeat(FILLER)));
            if (i % 2 == 0) {
                item.put("color", AttributeValue.s("c" + i));
            }
            if (i < WITH_LSI_KEY) {
                item.put("rank", AttributeValue.n(Integer.toString(10 - i)));
            }
            tables.putItem(accountId, tableName, Item.of(item));
        }
    }

    /**
     * Whether a statistics pass has counted the table and both indexes.
     *
     * @param d the table's description
     * @return whether every count is there
     */
    public static boolean counted(TableDescription d) {
        return d.itemCount() == ITEMS && gsi(d).itemCount() == WITH_GSI_KEY && lsi(d).itemCount() == WITH_LSI_KEY;
    }

    /**
     * The table's description once a statistics pass has counted it and both indexes, or the last one read when
     * {@code within} has passed (then {@link #requireCounted} says what is missing). Polls every 20 ms.
     *
     * @param describe reads the table's description
     * @param within   how long to wait for the pass
     * @return the description
     * @throws InterruptedException when interrupted while waiting
     */
    public static TableDescription awaitCounted(Supplier<TableDescription> describe, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        TableDescription d = describe.get();
        while (!counted(d) && System.nanoTime() - deadline < 0) {
            new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
            d = describe.get();
        }
        return d;
    }

    /**
     * Asserts the counts of the table and of each index.
     *
     * @param d the table's description after a statistics pass
     */
    public static void requireCounted(TableDescription d) {
        assertThat(d.itemCount()).as("the table's ItemCount").isEqualTo(ITEMS);
        assertThat(gsi(d).itemCount()).as("the sparse GSI's ItemCount: the items carrying its key only")
                .isEqualTo(WITH_GSI_KEY);
        assertThat(lsi(d).itemCount()).as("the LSI's ItemCount: the items carrying its sort key only")
                .isEqualTo(WITH_LSI_KEY);
        assertThat(gsi(d).sizeBytes()).as("the GSI's IndexSizeBytes: at least its entries' filler, below the table's")
                .isGreaterThanOrEqualTo((long) WITH_GSI_KEY * FILLER).isLessThan(d.tableSizeBytes());
        assertThat(lsi(d).sizeBytes()).as("the LSI's IndexSizeBytes: at least its entries' filler, below the table's")
                .isGreaterThanOrEqualTo((long) WITH_LSI_KEY * FILLER).isLessThan(d.tableSizeBytes());
    }

    private static GlobalSecondaryIndex gsi(TableDescription d) {
        return d.globalSecondaryIndexes().stream().filter(g -> g.name().equals(GSI)).findFirst().orElseThrow();
    }

    private static LocalSecondaryIndex lsi(TableDescription d) {
        return d.localSecondaryIndexes().stream().filter(l -> l.name().equals(LSI)).findFirst().orElseThrow();
    }
}

package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * BatchWriteItem on Cassandra [R7]: no transaction spans partitions, so a failure after some changes
 * were applied returns the rest as UnprocessedItems, never a complete result; a failure of the first
 * change is thrown. The failure is forced at the {@link WriteHooks#beforeItemWrite} point of the Nth write.
 */
class BatchWriteTest extends OnSharedNode {


    @AfterEach
    void noHooks() {
        storage.hooks(WriteHooks.NONE);
    }

    /** Fails the {@code n}th item write (1-based) with a Transient error, as a lost node would. */
    private static void failWrite(int n) {
        AtomicInteger writes = new AtomicInteger();
        storage.hooks(new WriteHooks() {
            @Override
            public void beforeItemWrite(String tableName) {
                if (writes.incrementAndGet() == n) {
                    throw new StorageException(ErrorReason.TRANSIENT, "writing an item of '" + tableName
                            + "': the node went away (forced by the test)");
                }
            }
        });
    }

    private static List<WriteRequest> puts(String pk, int n) {
        List<WriteRequest> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new WriteRequest.Put(TestCassandra.item("pk", AttributeValue.s(pk), "sk", AttributeValue.n(Integer.toString(i)))));
        }
        return out;
    }

    private static boolean stored(String account, String table, String pk, int sk) {
        return storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s(pk), "sk", AttributeValue.n(Integer.toString(sk))))
                .isPresent();
    }

    @Test
    void aFailureAfterSomeWereAppliedReturnsTheRestUnprocessed() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("batch");
        storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        List<WriteRequest> requests = puts("p", 5);
        failWrite(3);
        BatchWriteResult result = storage.tables().batchWriteItem(account, Map.of(table, requests));
        assertThat(result.complete()).as("a batch that stopped after two writes is not complete").isFalse();
        assertThat(result.unprocessedItems()).as("the failed put and every later one come back, in order")
                .containsExactly(Map.entry(table, requests.subList(2, 5)));
        assertThat(stored(account, table, "p", 0) && stored(account, table, "p", 1)).as("the first two were applied").isTrue();
        assertThat(stored(account, table, "p", 3) || stored(account, table, "p", 4)).as("nothing after the failure").isFalse();
        storage.hooks(WriteHooks.NONE);
        BatchWriteResult retry = storage.tables().batchWriteItem(account, result.unprocessedItems());
        assertThat(retry.complete()).as("sending the unprocessed items again completes the batch").isTrue();
        for (int i = 0; i < 5; i++) {
            assertThat(stored(account, table, "p", i)).as("item %d after the retry", i).isTrue();
        }
    }

    @Test
    void aFailureOfTheFirstWriteIsThrown() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("batch");
        storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        failWrite(1);
        assertThatThrownBy(() -> storage.tables().batchWriteItem(account, Map.of(table, puts("q", 3))))
                .isInstanceOf(StorageException.class).hasMessageContaining("forced by the test");
        assertThat(stored(account, table, "q", 1)).as("nothing after the failure").isFalse();
    }
}

package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.ports.out.StorageEvents;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * An embedder's metrics [X1] hear Cassandra's writes as they hear the other backends': the config's
 * {@code withEvents} reaches the core's table service (Cassandra's config once fixed its events to none).
 */
class StorageEventsTest {

    private static final String ACCOUNT = "acct";

    @Test
    void x1_writesOnCassandraAreToldToTheConfiguredEvents() {
        List<String> written = new CopyOnWriteArrayList<>();
        StorageEvents watcher = new StorageEvents() {
            @Override
            public void written(WriteKind write, Duration took, boolean failed) {
                written.add(write + (failed ? " failed" : " ok"));
            }
        };
        CassandraStorage storage = CassandraStorage.open(TestCassandra.config().withEvents(watcher));
        try {
            String table = TestCassandra.tableName("events");
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, table).partitionKey("pk", ScalarType.S).build());
            storage.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("a"))));
            assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.n("1")))))
                    .as("a put whose key has the wrong type is refused").isInstanceOf(StorageException.class);
            assertThat(written).as("one successful put, then one refused, each told once, in order")
                    .containsExactly("PUT ok", "PUT failed");
        } finally {
            TestCassandra.dropAndClose(storage);
        }
    }
}

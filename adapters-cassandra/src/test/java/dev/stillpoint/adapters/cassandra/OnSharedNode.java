package dev.stillpoint.adapters.cassandra;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class's engine on the shared node: opened under a fresh keyspace prefix before the class's
 * first test, its keyspaces dropped and the engine closed after its last. Test classes run one at a
 * time (no parallel execution is configured), so the one field serves each in turn; a subclass's own
 * {@code @BeforeAll} runs after the opening and its {@code @AfterAll} before the closing.
 */
abstract class OnSharedNode {

    static CassandraStorage storage;

    @BeforeAll
    static void openEngine() {
        storage = TestCassandra.open();
    }

    @AfterAll
    static void closeEngine() {
        TestCassandra.dropAndClose(storage);
        storage = null;
    }
}

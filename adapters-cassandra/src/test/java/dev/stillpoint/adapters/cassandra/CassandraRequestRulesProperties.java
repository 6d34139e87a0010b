package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.properties.fixtures.StorageKitEngine;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.properties.kit.RequestRulesKit;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Cassandra runs the request-rules kit [R1-R7] on the forked node: the core's rules, end to end
 * through this adapter's storage. Snapshots are refused by design [C1], so R1's snapshot case
 * expects Unsupported; every other rule is the same as on every backend.
 */
class CassandraRequestRulesProperties implements RequestRulesKit {

    @Override
    public boolean takesSnapshots() {
        return false;
    }

    @Override
    public ConformanceFixture fixture() {
        return new ConformanceFixture() {
            /** Each engine has its own keyspace prefix: the kit counts index entries on the engine it runs. */
            private final java.util.concurrent.atomic.AtomicReference<CassandraStorage> latest =
                    new java.util.concurrent.atomic.AtomicReference<>();

            @Override
            public String backendName() {
                return "Cassandra";
            }

            @Override
            public java.util.OptionalLong indexEntries(String accountId, String tableName, String indexName) {
                return java.util.OptionalLong.of(StoredData.indexItems(latest.get(), accountId, tableName, indexName).size());
            }

            @Override
            public KitEngine start(KitSettings settings) {
                CassandraStorage storage = TestCassandra.open();
                latest.set(storage);
                return StorageKitEngine.of(storage, StorageKitEngine.noRestores("Cassandra keeps no restore records"),
                        () -> TestCassandra.dropAndClose(storage));
            }

            @Override
            public Expectations expectations() {
                return new Expectations(false, 38, Optional.empty());
            }

            @Override
            public Set<String> relationsInCatalog() {
                throw new UnsupportedOperationException("the request-rules kit does not list relations; Cassandra's"
                        + " DeleteTable check lists them in CassandraConformanceProperties");
            }

            @Override
            public void writeAttributeDefinitions(String accountId, String tableName, List<AttributeDefinition> definitions) {
                throw new UnsupportedOperationException("only the snapshot kit rewrites definitions; Cassandra does not"
                        + " run it [C1]");
            }
        };
    }
}

package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.properties.fixtures.StorageKitEngine;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Cassandra runs the conformance kit. Its snapshot checks report themselves skipped with the reason
 * the backend gives (snapshots are refused by design [C1]); its DeleteTable checks run:
 * "DeleteTable leaves no relation" [C2, D5], listed from the node's own catalog
 * ({@code system_schema.tables} of every keyspace of the engine's prefix): synchronous, with a delay
 * (Cassandra drops inline whatever the delay: it has no control-plane store) and across a restart
 * (the next engine opens the same prefix and must not find the relations again). The held path needs
 * a snapshot, which Cassandra refuses by design [C1]: the kit aborts it with that reason.
 *
 * <p>Kills, by hand: {@code InlineDrops} dropping only the first of a table's data tables (the base)
 * fails the synchronous, delayed and restart checks with "[D5] DeleteTable leaves no relation ...
 * still lists [..._g..., ..._l...]" (the GSI and LSI tables).
 */
class CassandraConformanceProperties implements SnapshotConformanceKit {

    /** One listing engine per prefix a check used; its keyspaces are dropped once the class is done. */
    private static final List<CassandraStorage> LISTERS = new ArrayList<>();

    @Override
    public ConformanceFixture fixture() {
        CassandraConfig config = TestCassandra.config();
        // Opened once per fixture: an opening runs the catalog's schema steps, slow on a forked node.
        CassandraStorage lister = CassandraStorage.open(config);
        synchronized (LISTERS) {
            LISTERS.add(lister);
        }
        return new ConformanceFixture() {
            @Override
            public String backendName() {
                return "Cassandra";
            }

            @Override
            public KitEngine start(KitSettings settings) {
                CassandraStorage storage = CassandraStorage.open(config);
                // Closed only: the next engine of a restart check opens the same keyspaces.
                return StorageKitEngine.of(storage, StorageKitEngine.noRestores("the DeleteTable kit records no restores"),
                        storage::close);
            }

            @Override
            public Expectations expectations() {
                return new Expectations(false, 38, Optional.empty());
            }

            @Override
            public Set<String> relationsInCatalog() {
                Set<String> relations = new TreeSet<>();
                for (String keyspace : TestCassandra.keyspaces(lister)) {
                    for (Row row : lister.cql().read("listing relations",
                            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace)) {
                        relations.add(keyspace + "." + row.getString("table_name"));
                    }
                }
                return relations;
            }

            @Override
            public void writeAttributeDefinitions(String accountId, String tableName, List<AttributeDefinition> definitions) {
                throw new UnsupportedOperationException("only the snapshot kit rewrites definitions; Cassandra does"
                        + " not run it [C1]");
            }
        };
    }

    @AfterContainer
    static void dropKeyspaces() {
        synchronized (LISTERS) {
            LISTERS.forEach(TestCassandra::dropAndClose);
            LISTERS.clear();
        }
    }
}

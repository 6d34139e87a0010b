package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The catalog's versioned schema steps, applied by the adapter itself. */
class CatalogSchemaTest {

    @Test
    void openingAppliesEveryStepOnceAndReopeningChangesNothing() throws Exception {
        CassandraConfig config = TestCassandra.config();
        CassandraStorage first = null;
        List<CassandraStorage> opened = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            // Three engines open a fresh catalog at once: the steps are applied and recorded once each.
            List<Future<CassandraStorage>> futures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                futures.add(pool.submit(() -> CassandraStorage.open(config)));
            }
            for (Future<CassandraStorage> f : futures) {
                opened.add(f.get(120, TimeUnit.SECONDS));
            }
            first = opened.get(0);
            assertThat(TestCassandra.catalogSchemaVersions(first)).containsExactly(1, 2, 3, 4, 5, 6);
            assertThat(TestCassandra.keyspaces(first)).containsExactly(config.catalogKeyspace());
            List<String> catalogTables = new ArrayList<>();
            first.cql().read("listing", "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?",
                    config.catalogKeyspace()).forEach(r -> catalogTables.add(r.getString("table_name")));
            assertThat(catalogTables).containsExactlyInAnyOrder("schema_version", "tables", "accounts", "table_statistics",
                    "restores");

            // A table survives reopening: the catalog is the same.
            String account = TestCassandra.account();
            String table = TestCassandra.tableName("kept");
            first.tables().createTable(TestCassandra.hashOnly(account, table, ScalarType.S));
            try (CassandraStorage again = CassandraStorage.open(config)) {
                assertThat(TestCassandra.catalogSchemaVersions(again)).containsExactly(1, 2, 3, 4, 5, 6);
                assertThat(again.tables().listTables(account)).containsExactly(table);
            }

            // A catalog at a version this adapter does not know is refused.
            first.cql().run("recording a future step", "INSERT INTO " + config.catalogKeyspace()
                    + ".schema_version (version, description) VALUES (?, ?)", CatalogSchema.latestVersion() + 1, "from the future");
            Throwable refused = catchThrowable(() -> CassandraStorage.open(config).close());
            assertThat(refused).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                assertThat(e.getMessage()).contains("schema version " + (CatalogSchema.latestVersion() + 1))
                        .contains("newer than this adapter's " + CatalogSchema.latestVersion());
            });
            assertThat(Set.copyOf(TestCassandra.catalogSchemaVersions(first))).hasSize(CatalogSchema.latestVersion() + 1);
        } finally {
            pool.shutdownNow();
            for (int i = 1; i < opened.size(); i++) {
                opened.get(i).close();
            }
            TestCassandra.dropAndClose(first);
        }
    }
}

package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The configuration's checks and the CQL names: no user text in any identifier, all within 48 characters. */
class ConfigAndNamesTest {

    static void refused(Runnable r, String fragment) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).contains(fragment);
        });
    }

    @Test
    void configurationIsCheckedOnConstruction() {
        CassandraConfig ok = CassandraConfig.of("127.0.0.1", 9042);
        assertThat(ok.catalogKeyspace()).isEqualTo("stillpoint_catalog");
        assertThat(ok.localDatacenter()).isEqualTo("datacenter1");
        assertThat(ok.replicationFactor()).isEqualTo(1);
        refused(() -> ok.withKeyspacePrefix("Upper"), "keyspace prefix");
        refused(() -> ok.withKeyspacePrefix("1abc"), "keyspace prefix");
        refused(() -> ok.withKeyspacePrefix("a".repeat(25)), "keyspace prefix");
        refused(() -> ok.withKeyspacePrefix("a-b"), "keyspace prefix");
        refused(() -> ok.withReplicationFactor(0), "replication factor");
        refused(() -> ok.withRequestTimeout(Duration.ZERO), "request timeout");
        refused(() -> ok.withLocalDatacenter("dc'1"), "local datacenter");
        refused(() -> CassandraConfig.of("", 9042), "host");
        refused(() -> CassandraConfig.of("h", 0), "port");
        assertThat(CassandraConfig.parse("10.0.0.1:9043")).satisfies(c -> {
            assertThat(c.host()).isEqualTo("10.0.0.1");
            assertThat(c.port()).isEqualTo(9043);
        });
        assertThat(CassandraConfig.parse("[::1]:9042").host()).isEqualTo("::1");
        refused(() -> CassandraConfig.parse("nohost"), "host:port");
        refused(() -> CassandraConfig.parse("h:x"), "host:port");
    }

    @Test
    void namesAreDerivedFromIdsAndHashesOnly() {
        String prefix = "p".repeat(CassandraConfig.MAX_PREFIX_LENGTH);
        String ks = DataNames.accountKeyspace(prefix, "account'; DROP KEYSPACE x; --");
        assertThat(ks).matches("p{24}_a_[0-9a-f]{20}").hasSizeLessThanOrEqualTo(DataNames.MAX_NAME);
        assertThat(DataNames.accountKeyspace(prefix, "123456789012")).isNotEqualTo(DataNames.accountKeyspace(prefix, "123456789013"));
        assertThat(DataNames.accountKeyspace("a", "x")).isEqualTo(DataNames.accountKeyspace("a", "x"));
        String id = DataNames.newTableId();
        assertThat(id).matches("[0-9a-f]{32}");
        assertThat(DataNames.itemsTable(id)).isEqualTo("t_" + id);
        Set<String> indexTables = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            String t = DataNames.newIndexTable(id, i % 2 == 0);
            assertThat(t).matches("t_" + id + "_[gl][0-9a-f]{8}").hasSizeLessThanOrEqualTo(DataNames.MAX_NAME);
            indexTables.add(t);
        }
        assertThat(indexTables).as("random index table names do not collide").hasSize(100);
        assertThatThrownBy(() -> DataNames.itemsTable("Robert'); DROP")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataNames.identifier("has space")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void catalogStepsAreNumberedInOrder() {
        var steps = CatalogSchema.steps("ks");
        for (int i = 0; i < steps.size(); i++) {
            assertThat(steps.get(i).version()).isEqualTo(i + 1);
            assertThat(steps.get(i).statements()).allSatisfy(s -> assertThat(s).contains("IF NOT EXISTS"));
        }
        assertThat(CatalogSchema.latestVersion()).isEqualTo(steps.size());
    }
}

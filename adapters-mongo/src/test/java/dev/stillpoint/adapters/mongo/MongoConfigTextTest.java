package dev.stillpoint.adapters.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A config an embedder logs shows where it points, never the password of its URI. Found from outside: the
 * record's own {@code toString} printed {@code connectionString=mongodb://app:PASSWORD@...} whole, although
 * the adapter's messages already used {@link MongoConfig#redactedConnectionString()}. Needs no server:
 * building a config only parses the URI.
 */
class MongoConfigTextTest {

    @Test
    void aConfigsTextNamesHostsAndDatabasesButNotThePassword() {
        MongoConfig config = MongoConfig.of("mongodb://app:Pw-never-printed-7@db1.invalid:27017,db2.invalid:27018/"
                + "?replicaSet=rs0&authSource=admin").withDatabases("cat_a", "data_a");
        assertThat(config.toString())
                .contains("mongodb://db1.invalid:27017,db2.invalid:27018", "cat_a", "data_a")
                .doesNotContain("Pw-never").doesNotContain("app:");
    }
}

package dev.stillpoint.examples;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;

class PostgresEmbedding {
    static PostgresStorage open(String jdbcUrl, String user, String password) {
        // Catalog and data in one database; PostgresConfig.separate(catalog, data) puts the data in another.
        return PostgresStorage.open(PostgresConfig.shared(new PostgresConfig.Database(jdbcUrl, user, password)));
    }
}

package dev.stillpoint.adapters.postgres.restore;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The child JVM of {@link PostgresRestoreTest}'s kill test [E5]: begins a restore, writes a first batch,
 * says so on stdout, and keeps writing until it is killed; it never closes the load.
 * Arguments: table, restore idle limit (ms), catalog url, user, password, then the data database's
 * url, user, password for the separate layout.
 */
public final class PgRestoreChild {

    private PgRestoreChild() {
    }

    public static void main(String[] args) {
        String table = args[0];
        Duration limit = Duration.ofMillis(Long.parseLong(args[1]));
        PostgresConfig.Database catalog = new PostgresConfig.Database(args[2], args[3], args[4]);
        PostgresConfig config = args.length > 5
                ? PostgresConfig.separate(catalog, new PostgresConfig.Database(args[5], args[6], args[7]))
                : PostgresConfig.shared(catalog);
        PostgresStorage storage = PostgresStorage.open(config.withRestoreIdleLimit(limit));
        RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(table),
                new RestoreOrigin(Optional.empty(), Instant.now()));
        KilledRestore.writeUntilKilled(load);
    }
}

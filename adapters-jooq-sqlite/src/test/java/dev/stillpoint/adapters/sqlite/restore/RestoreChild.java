package dev.stillpoint.adapters.sqlite.restore;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The child JVM of {@link SqliteRestoreTest}'s kill test [E5]: begins a restore, writes a first batch,
 * says so on stdout, and keeps writing until it is killed. It never closes the load.
 * Arguments: database file, table name, restore idle limit in milliseconds.
 */
public final class RestoreChild {

    private RestoreChild() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        String table = args[1];
        Duration limit = Duration.ofMillis(Long.parseLong(args[2]));
        SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withRestoreIdleLimit(limit));
        RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(table),
                new RestoreOrigin(Optional.of("arn:aws:dynamodb:us-east-1:111122223333:table/Source"), Instant.now()));
        KilledRestore.writeUntilKilled(load);
    }
}

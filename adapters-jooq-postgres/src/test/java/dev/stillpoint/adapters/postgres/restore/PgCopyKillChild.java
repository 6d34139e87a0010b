package dev.stillpoint.adapters.postgres.restore;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The child JVM of {@link PostgresBulkRestoreTest}'s kill test [E5, B1]: begins a restore, writes items and
 * completes it; the copy hook reports {@code WRITING <table id>} on stdout from inside the first COPY (its
 * rows sent, the COPY not ended) and then waits on a latch nobody counts down, until the test kills the JVM.
 * Arguments: table, restore idle limit (ms), catalog url, user, password, then the data database's url,
 * user, password for the separate layout.
 */
public final class PgCopyKillChild {

    private PgCopyKillChild() {
    }

    public static void main(String[] args) throws Exception {
        AtomicReference<String> tableId = new AtomicReference<>();
        CountDownLatch never = new CountDownLatch(1);
        PostgresConfig.Database catalog = new PostgresConfig.Database(args[2], args[3], args[4]);
        PostgresConfig config = (args.length > 5
                ? PostgresConfig.separate(catalog, new PostgresConfig.Database(args[5], args[6], args[7]))
                : PostgresConfig.shared(catalog))
                .withRestoreIdleLimit(java.time.Duration.ofMillis(Long.parseLong(args[1])))
                .withCopyHook(() -> {
                    System.out.println("WRITING " + tableId.get());
                    System.out.flush();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        PostgresStorage storage = PostgresStorage.open(config);
        RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(args[0]),
                new RestoreOrigin(Optional.empty(), Instant.now()));
        tableId.set(load.table().tableId());
        load.write(RestoreFixtures.items(0, 2000));
        load.complete();   // sends the COPYs; the hook holds the first one open
        System.err.println("the copy hook did not hold the COPY");
    }
}

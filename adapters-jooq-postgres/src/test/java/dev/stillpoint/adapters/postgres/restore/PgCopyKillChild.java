package dev.stillpoint.adapters.postgres.restore;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.KilledRestore;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The child JVM of {@link PostgresBulkRestoreTest}'s kill tests [E5, B1, B3]: begins a restore and writes into it
 * from W threads at once, as {@code restore -j W} does, each thread its own items (40 of about 300 KB, past the
 * load's 2 MiB budget, so each write sends a COPY on its own load's connection). The copy hook holds every COPY
 * open (its rows sent, the COPY not ended) on a latch nobody counts down; once all W threads are inside theirs,
 * the child reports {@code WRITING <table id>} on stdout and waits until the test kills the JVM.
 * Arguments: table, writers W, restore idle limit (ms), catalog url, user, password, then the data database's
 * url, user, password for the separate layout.
 */
public final class PgCopyKillChild {

    /** Items per writer and the padding of each: about 12 MB per writer, past PgBulkLoads' 2 MiB budget. */
    private static final int ITEMS_PER_WRITER = 40;
    private static final int PAD_CHARS = 300_000;

    private PgCopyKillChild() {
    }

    public static void main(String[] args) throws Exception {
        String table = args[0];
        int writers = Integer.parseInt(args[1]);
        CountDownLatch inCopy = new CountDownLatch(writers);
        CountDownLatch never = new CountDownLatch(1);
        PostgresConfig.Database catalog = new PostgresConfig.Database(args[3], args[4], args[5]);
        PostgresConfig config = (args.length > 6
                ? PostgresConfig.separate(catalog, new PostgresConfig.Database(args[6], args[7], args[8]))
                : PostgresConfig.shared(catalog))
                .withRestoreIdleLimit(Duration.ofMillis(Long.parseLong(args[2])))
                .withCopyHook(() -> {
                    inCopy.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        PostgresStorage storage = PostgresStorage.open(config);
        RestoreLoad load = storage.restores().begin(RestoreFixtures.definition(table),
                new RestoreOrigin(Optional.empty(), Instant.now()));
        if (load.concurrentWriters() < writers) {
            // Writes beyond concurrentWriters() wait for a load: fewer COPYs would be open than the test expects.
            fail("the restore takes " + load.concurrentWriters() + " writers at once, the test asks for " + writers);
        }
        for (int w = 0; w < writers; w++) {
            List<Item> mine = RestoreFixtures.paddedItems(w * ITEMS_PER_WRITER, ITEMS_PER_WRITER, PAD_CHARS);
            Thread writer = new Thread(() -> {
                load.write(mine);   // sends a COPY; the hook holds it open, so this returns only if it did not
                fail(Thread.currentThread().getName() + "'s write returned: the copy hook did not hold its COPY");
            }, "copy-writer-" + w);
            writer.setUncaughtExceptionHandler((t, e) -> {
                e.printStackTrace();
                fail(t.getName() + " failed: " + e);
            });
            writer.start();
        }
        inCopy.await();
        KilledRestore.report(load.table().tableId());
        never.await();
    }

    /** Ends the child at once, so the test fails on its missing report with this stderr, not on a timeout. */
    private static void fail(String why) {
        System.err.println(why);
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }
}

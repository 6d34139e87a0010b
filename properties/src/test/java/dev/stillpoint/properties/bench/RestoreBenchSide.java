package dev.stillpoint.properties.bench;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The restore side every backend's restore-beside-its-native-bulk-load bench times [B1], so their figures
 * compare: {@link BenchItems}' table (key pk S + sk N, one GSI on {@code email} holding every item), loaded
 * through the library path in writes of 500 items (the CLI's batch).
 */
public final class RestoreBenchSide {

    /** The account every bench table is in. */
    public static final String ACCOUNT = "000000000000";

    private RestoreBenchSide() {
    }

    /** The bench table's definition under {@code name}. */
    public static CreateTableRequest definition(String name) {
        return CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .globalIndex("byEmail", "email", ScalarType.S, Projection.all()).build();
    }

    /** Seconds to restore {@code items} into a new table {@code name}: begin, writes of 500, complete. */
    public static double restore(Storage storage, List<Item> items, String name) {
        long start = System.nanoTime();
        try (RestoreLoad load = storage.restores().begin(definition(name), new RestoreOrigin(Optional.empty(), Instant.now()))) {
            for (int from = 0; from < items.size(); from += 500) {
                load.write(items.subList(from, Math.min(items.size(), from + 500)));
            }
            load.complete();
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** The one-minute load average, printed beside each round: the machine may be shared. */
    public static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }
}

package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cost of restore's duplicate-key check [V4], measured, not asserted: not in the suite (surefire's
 * includes skip *Bench); run it with {@code mvn -pl backup -am verify -Dtest=KeyDigestsBench
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.keys=10000000]}. It records {@code bench.keys} composite
 * keys (one duplicate at the end), finds the duplicate, and prints the wall time and the heap's peak use
 * (all heap pools' peaks, reset before the run), so the figure at 100M keys can be read off as a bound.
 */
class KeyDigestsBench {

    @Test
    void recordAndFind() {
        long n = Long.getLong("bench.keys", 10_000_000L);
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        long started = System.nanoTime();
        long found;
        try (KeyDigests keys = new KeyDigests(KeySchema.composite("pk", "sk"))) {
            for (long i = 0; i < n; i++) {
                keys.add(Item.of(Map.of("pk", AttributeValue.s("p" + (i % 1000)), "sk", new AttributeValue.N(Long.toString(i)))),
                        KeyDigests.place(0, i + 1));
            }
            keys.add(Item.of(Map.of("pk", AttributeValue.s("p7"), "sk", new AttributeValue.N("7.0"))), KeyDigests.place(0, n + 1));
            long[] collapsed = keys.collapsed(d -> { });
            found = collapsed.length;
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf("KeyDigestsBench: %,d keys, %d duplicate(s) found, %,d ms (%.2f us/key), heap peak %,d MiB"
                + " (max heap %,d MiB)%n", n + 1, found, ms, ms * 1000.0 / (n + 1), peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
        assertThat(found).isEqualTo(1);
    }
}

package dev.stillpoint.properties.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap while a benchmark drains a stream: a 1 ms sampler of used heap, and every GC's heap in
 * use after it (the live set), against a baseline taken after three full GCs. Heap "flat" across
 * table sizes shows as the same after-GC figure at 100k and at 1M items. JDK only.
 */
public final class HeapWatch implements AutoCloseable {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    public final long baseline;
    public final AtomicLong maxUsed = new AtomicLong();
    public final AtomicLong maxAfterGc = new AtomicLong();
    public final AtomicLong gcs = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener;
    private final long gcCountBefore;

    public HeapWatch() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        baseline = MEMORY.getHeapMemoryUsage().getUsed();
        gcCountBefore = gcCount();
        listener = (notification, handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                return;
            }
            GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            long after = 0;
            for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
                after += u.getUsed();
            }
            // Non-heap pools (metaspace, code cache) are in the map too: subtract them.
            after -= nonHeapUsed(info.getGcInfo().getMemoryUsageAfterGc());
            maxAfterGc.accumulateAndGet(after, Math::max);
        };
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(listener, null, null);
                emitters.add(e);
            }
        }
        sampler = new Thread(() -> {
            while (running) {
                maxUsed.accumulateAndGet(MEMORY.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private static long nonHeapUsed(Map<String, MemoryUsage> pools) {
        long n = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.NON_HEAP && pools.containsKey(pool.getName())) {
                n += pools.get(pool.getName()).getUsed();
            }
        }
        return n;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join();
        Thread.sleep(100); // let GC notifications in flight arrive
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException ignored) {
                // already gone
            }
        }
        gcs.set(gcCount() - gcCountBefore);
    }

    public String report() {
        return String.format(Locale.ROOT, "baseline %5.1f MiB, peak used (1 ms sampler) +%6.1f MiB, "
                        + "peak after-GC +%6.1f MiB, %d GCs", baseline / 1048576.0,
                (maxUsed.get() - baseline) / 1048576.0,
                gcs.get() == 0 ? 0.0 : (maxAfterGc.get() - baseline) / 1048576.0, gcs.get());
    }
}

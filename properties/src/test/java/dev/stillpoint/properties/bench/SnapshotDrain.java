package dev.stillpoint.properties.bench;

import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import java.util.concurrent.locks.LockSupport;

/** A snapshot of one table read to its end, as the snapshot benchmarks measure it. */
public final class SnapshotDrain {

    /** Sink so the JIT cannot drop the reads. */
    public static volatile long sink;

    private SnapshotDrain() {
    }

    /** What a drain takes of each item. */
    public enum Take {
        /** The stored bytes where the backend hands them over, else the text: what an export writes. */
        STORED_BYTES,
        /** The stored text as a {@code String} ({@code json()}). */
        TEXT,
        /** The decoded item ({@code item()}). */
        DECODED
    }

    /**
     * Drains a snapshot of {@code table}, taking each item's stored text or, with {@code decode}, its
     * decoded item; with {@code perSecond} > 0, paced to that many items a second. Returns the items read.
     */
    public static long drain(SnapshotEngine snapshots, String account, String table, boolean decode, int perSecond) {
        return drain(snapshots, account, table, StoredKeys.OMITTED, decode ? Take.DECODED : Take.TEXT, perSecond);
    }

    /** As {@link #drain(SnapshotEngine, String, String, boolean, int)}, the items carrying their stored keys or not. */
    public static long drain(SnapshotEngine snapshots, String account, String table, StoredKeys storedKeys, boolean decode,
                             int perSecond) {
        return drain(snapshots, account, table, storedKeys, decode ? Take.DECODED : Take.TEXT, perSecond);
    }

    /** As above, taking {@code take} of each item. */
    public static long drain(SnapshotEngine snapshots, String account, String table, StoredKeys storedKeys, Take take,
                             int perSecond) {
        long n = 0;
        long acc = 0;
        long start = System.nanoTime();
        try (TableSnapshot s = snapshots.openTableSnapshot(account, table, storedKeys)) {
            var items = s.items();
            while (items.hasNext()) {
                StoredItem item = items.next();
                acc += switch (take) {
                    case STORED_BYTES -> item.storedBytes().map(b -> b.length).orElseGet(() -> item.json().length());
                    case TEXT -> item.json().length();
                    case DECODED -> item.item().attributes().size();
                };
                n++;
                if (perSecond > 0 && n % 100 == 0) {
                    long due = start + n * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        break;
                    }
                }
            }
        }
        sink += acc;
        return n;
    }
}

package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A restore's writes through the backend's bulk path [B1]. Every item of a write is checked by PutItem's
 * rules ({@link ItemRules#forPut}) against the restore's own definition, and its index keys computed by the
 * same rule, before any of them reaches the load [V2]: a refused item names its place and nothing of that
 * write is handed over. The definition cannot change under the restore (UpdateTable refuses a CREATING
 * table), so it is read once, at begin, instead of in every unit of work. The load opens at the first
 * write and is handed chunks of at most {@link #CHUNK_ITEMS} items or about {@link #CHUNK_BYTES}, so that
 * the restore gives a sign of life between chunks however large a write is.
 *
 * <p>Writes may come from up to {@link BulkLoads#writers()} threads at once ({@code restore -j N}) [B3]: each
 * takes a load of its own for the whole write (up to that many loads opened side by side, each its own
 * connection and transaction) and gives it back after; {@link #finish()} makes each of them durable in turn.
 */
final class BulkRestore {

    /** Items per chunk handed to the load: large, as a bulk load wants, yet a few seconds of work at most. */
    static final int CHUNK_ITEMS = 10_000;
    /** About this many bytes of items per chunk, whatever their count. */
    static final long CHUNK_BYTES = 16L << 20;

    private final BulkLoads loads;
    private final TableDescription created;
    /** Loads open side by side at most: the backend's {@link BulkLoads#writers()}. */
    private final int writers;
    // Guarded by this: every load opened, those no write is using, and whether the restore closed them.
    private final List<BulkLoad> opened = new ArrayList<>();
    private final java.util.ArrayDeque<BulkLoad> idle = new java.util.ArrayDeque<>();
    private boolean closed;
    /** The load's first failure: the load is broken after it, so every later write or finish says so. */
    private volatile StorageException broken;

    BulkRestore(BulkLoads loads, TableDescription created) {
        this.loads = loads;
        this.created = created;
        this.writers = Math.max(1, loads.writers());
    }

    /** @return how many writes may run at once, each on a load of its own [B3] */
    int writers() {
        return writers;
    }

    /**
     * Checks every item of {@code batch}, then writes them chunk by chunk, calling {@code afterChunk} with each
     * chunk's size once it is written.
     */
    void write(List<Item> batch, IntConsumer afterChunk) {
        requireNotBroken();
        List<ItemWrite> checked = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            try {
                checked.add(ItemRules.forPut(created, batch.get(i)));
            } catch (StorageException e) {
                throw new StorageException(e.reason(), "restore into table '" + name() + "', item " + (i + 1)
                        + " of " + batch.size() + ": " + e.getMessage(), e);
            }
        }
        BulkLoad load = take();
        try {
            int from = 0;
            while (from < checked.size()) {
                int to = chunkEnd(batch, from);
                try {
                    load.write(checked.subList(from, to));
                } catch (StorageException e) {
                    broken = new StorageException(e.reason(), "restore into table '" + name() + "', items " + (from + 1)
                            + "-" + to + " of " + batch.size() + ": " + e.getMessage(), e);
                    throw broken;
                }
                afterChunk.accept(to - from);
                from = to;
            }
        } finally {
            give(load);
        }
    }

    /** Makes everything written durable; the caller completes the restore only after this returns. */
    void finish() {
        requireNotBroken();
        List<BulkLoad> loads;
        synchronized (this) {
            if (closed) {
                throw StorageException.validation("cannot finish the restore into table '" + name() + "': it was closed");
            }
            loads = List.copyOf(opened);   // none when nothing was written: nothing to make durable
        }
        for (BulkLoad load : loads) {
            // Each load commits alone: one that fails leaves the table CREATING, and its removal takes the rest [E5].
            try {
                load.finish();
            } catch (StorageException e) {
                broken = new StorageException(e.reason(), "restore into table '" + name() + "', finishing its load: "
                        + e.getMessage(), e);
                throw broken;
            }
        }
    }

    /**
     * Closes the load (what it did not make durable is discarded, its locks given back); may run on another
     * thread while a write runs, in which case the load waits for that write. No load opens after it.
     */
    void close() {
        List<BulkLoad> loads;
        synchronized (this) {
            closed = true;
            notifyAll();
            // Idle loads first: a write waiting on a row an idle load holds goes on once that load rolled back.
            loads = java.util.stream.Stream.concat(idle.stream(), opened.stream().filter(l -> !idle.contains(l)))
                    .toList();
        }
        loads.forEach(BulkLoad::close);
    }

    /**
     * A load no other write is using: an idle one, else a new one while fewer than {@link #writers} are open,
     * else the next one given back. Opened at the first write, so a restore of nothing opens none.
     */
    private synchronized BulkLoad take() {
        while (true) {
            if (closed) {
                throw StorageException.validation("cannot write to the restore into table '" + name() + "': it was closed");
            }
            if (!idle.isEmpty()) {
                return idle.pop();
            }
            if (opened.size() < writers) {
                BulkLoad load = new GuardedBulkLoad(loads.open(created), name());
                opened.add(load);
                return load;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw StorageException.validation("the restore into table '" + name() + "' was interrupted waiting"
                        + " for a load");
            }
        }
    }

    private synchronized void give(BulkLoad load) {
        idle.push(load);
        notifyAll();
    }

    private void requireNotBroken() {
        StorageException failure = broken;
        if (failure != null) {
            throw new StorageException(failure.reason(), "the restore into table '" + name()
                    + "' cannot go on: its load failed earlier (" + failure.getMessage() + ")", failure);
        }
    }

    /** The end of the chunk starting at {@code from}: at most {@link #CHUNK_ITEMS} items and about {@link #CHUNK_BYTES}. */
    private static int chunkEnd(List<Item> batch, int from) {
        int to = from;
        long bytes = 0;
        while (to < batch.size() && to - from < CHUNK_ITEMS && (to == from || bytes < CHUNK_BYTES)) {
            bytes += batch.get(to).sizeInBytes();
            to++;
        }
        return to;
    }

    private String name() {
        return created.tableName();
    }
}

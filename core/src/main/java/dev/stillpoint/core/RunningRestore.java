package dev.stillpoint.core;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.RestoreStore;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One restore between {@code begin} and {@code close} [E4, E5]. Items go in through the adapter's
 * {@link ItemWrites} in chunks (up to 100 items or about 4 MiB, one unit of work each), every item checked
 * by {@link ItemRules#forPut} (PutItem's rules) against the definition read in the chunk's own unit of
 * work, which must still be this restore's table: the same table id, CREATING, its restore in progress.
 * After each chunk, once a quarter of the idle limit has passed since the last stamp, the stamp is
 * renewed. {@link #close()} without {@link #complete()} removes the table through DeleteTable's drop
 * attempt; it may be called from another thread (a shutdown hook) while a write runs, and the database
 * orders the two.
 *
 * <p>Where the backend has a bulk path ({@link BulkLoads}) the items go through it instead [B1]
 * ({@link BulkRestore}): checked by the same rules, in large chunks, made durable before the table turns
 * ACTIVE, and the load closed (its locks given back) before an abandoned table is removed. Its writes may come
 * from up to {@link #concurrentWriters()} threads at once ({@code restore -j N}) [B3]: the stamp's renewal is
 * taken under this object's lock, so one thread renews at a time.
 */
final class RunningRestore implements RestoreLoad {

    /** Items per unit of work of a load (see {@link #chunkEnd}). */
    static final int CHUNK_ITEMS = 100;
    /** About this many bytes of items per unit of work, whatever their count. */
    static final long CHUNK_BYTES = 4L << 20;

    private final TableDescription created;
    private final RestoreStore store;
    private final TableCatalog catalog;
    private final ItemWrites items;
    private final TableDeletion deletion;
    private final TimeSource time;
    private final RestoreIdleLimit idleLimit;
    private final StorageEvents events;
    /** The bulk path, when the backend has one; null otherwise. */
    private final BulkRestore bulk;
    private final AtomicBoolean completed = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    // Guarded by this: writes may run on several threads at once where the bulk path has several writers [B3].
    private TableState state;
    private long stampedAtNanos;

    RunningRestore(TableDescription created, TableState.Restoring state, RestoreStore store, TableCatalog catalog,
                   ItemWrites items, TableDeletion deletion, TimeSource time, RestoreIdleLimit idleLimit,
                   StorageEvents events, Optional<BulkLoads> bulkLoads) {
        this.events = events;
        this.bulk = bulkLoads.map(loads -> new BulkRestore(loads, created)).orElse(null);
        this.created = created;
        this.state = state;
        this.store = store;
        this.catalog = catalog;
        this.items = items;
        this.deletion = deletion;
        this.time = time;
        this.idleLimit = idleLimit;
        this.stampedAtNanos = time.monotonicNanos();
    }

    @Override
    public TableDescription table() {
        return created;
    }

    @Override
    public int concurrentWriters() {
        return bulk != null ? bulk.writers() : 1;
    }

    @Override
    public void write(List<Item> batch) {
        requireRunning("write to");
        if (batch == null) {
            throw StorageException.validation("items to restore into table '" + name() + "' are required, got null");
        }
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i) == null) {
                throw StorageException.validation("item " + (i + 1) + " of " + batch.size()
                        + " to restore into table '" + name() + "' is null");
            }
        }
        if (bulk != null) {
            bulk.write(batch, written -> {
                events.restored(written);
                renewIfDue();
            });
            return;
        }
        int from = 0;
        while (from < batch.size()) {
            requireRunning("write to");
            int to = chunkEnd(batch, from);
            writeChunk(batch, from, to);
            events.restored(to - from);
            renewIfDue();
            from = to;
        }
    }

    /**
     * The end of the chunk starting at {@code from}: at most {@link #CHUNK_ITEMS} items and about
     * {@link #CHUNK_BYTES}, at least one. One unit of work per chunk is what makes a restore load at
     * the database's speed rather than at one commit per item; the bounds keep a unit of work (a
     * MongoDB transaction above all) well inside what every backend takes.
     */
    private static int chunkEnd(List<Item> batch, int from) {
        int to = from;
        long bytes = 0;
        while (to < batch.size() && to - from < CHUNK_ITEMS && (to == from || bytes < CHUNK_BYTES)) {
            bytes += batch.get(to).sizeInBytes();
            to++;
        }
        return to;
    }

    private void writeChunk(List<Item> batch, int from, int to) {
        List<Item> chunk = batch.subList(from, to);
        StorageException[] refusedItem = new StorageException[1];
        Map<String, List<ItemChange>> notApplied;
        try {
            notApplied = items.write(created.accountId(), Map.of(name(), table -> {
                TableDescription mine = ours(table);
                List<ItemChange> changes = new ArrayList<>(chunk.size());
                for (int i = 0; i < chunk.size(); i++) {
                    try {
                        changes.add(new ItemChange.Put(ItemRules.forPut(mine, chunk.get(i))));
                    } catch (StorageException e) {
                        refusedItem[0] = new StorageException(e.reason(), "restore into table '" + name() + "', item "
                                + (from + i + 1) + " of " + batch.size() + ": " + e.getMessage(), e);
                        throw refusedItem[0];
                    }
                }
                return changes;
            }));
        } catch (StorageException e) {
            if (e == refusedItem[0]) {
                throw e;   // already names the item
            }
            throw new StorageException(e.reason(), "restore into table '" + name() + "', items " + (from + 1) + "-"
                    + to + " of " + batch.size() + ": " + e.getMessage(), e);
        }
        if (!notApplied.isEmpty()) {
            // A backend without transactions applied part of the chunk: the load stops; its caller abandons it.
            int missing = notApplied.values().stream().mapToInt(List::size).sum();
            throw new StorageException(ErrorReason.TRANSIENT, "restore into table '" + name() + "', items " + (from + 1)
                    + "-" + to + " of " + batch.size() + ": " + missing + " of them were not written");
        }
    }

    @Override
    public synchronized TableDescription complete() {
        requireRunning("complete");
        if (bulk != null) {
            // Durable first: a crash between the two leaves a CREATING table, which is removed [E5].
            bulk.finish();
        }
        Transition<TableState, TableEffect, TableRefusal> t = apply(new TableEvent.RestoreCompleted());
        for (TableEffect effect : t.effects()) {
            if (!(effect instanceof TableEffect.MarkRestored)
                    || !store.completeRestore(created.accountId(), name(), created.tableId())) {
                throw gone();
            }
        }
        state = t.nextOr(state);
        completed.set(true);
        return catalog.describe(created.accountId(), name()).orElseThrow(this::gone);
    }

    @Override
    public void close() {
        if (completed.get() || !closed.compareAndSet(false, true)) {
            return;
        }
        if (bulk != null) {
            // First: an open load holds the relations' locks, behind which the drop would wait.
            bulk.close();
        }
        try {
            deletion.abandonRestore(created.accountId(), name(), created.tableId());
        } catch (StorageException e) {
            // Already removed (by a poller that found it dead) or completed by a racing complete(): nothing to undo.
            if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                throw e;
            }
        }
    }

    private synchronized void renewIfDue() {
        if (time.monotonicNanos() - stampedAtNanos < idleLimit.renewEvery().toNanos()) {
            return;
        }
        Transition<TableState, TableEffect, TableRefusal> t =
                apply(new TableEvent.RestoreRenewed(time.now(), idleLimit.duration()));
        for (TableEffect effect : t.effects()) {
            if (!(effect instanceof TableEffect.RenewRestore renew)
                    || !store.renewRestore(created.accountId(), name(), created.tableId(), renew.aliveUntil())) {
                throw gone();
            }
        }
        state = t.nextOr(state);
        stampedAtNanos = time.monotonicNanos();
    }

    private Transition<TableState, TableEffect, TableRefusal> apply(TableEvent event) {
        Transition<TableState, TableEffect, TableRefusal> t = TableLifecycle.apply(state, event);
        if (t instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            throw new StorageException(refused.refusal().reason(), "restore into table '" + name() + "': "
                    + refused.detail());
        }
        return t;
    }

    /**
     * {@code table} if it is still this restore's table, as the write's unit of work read it: the same
     * instance (table ids are never reused) and still CREATING, which for that instance means restoring.
     */
    private TableDescription ours(TableDescription table) {
        if (!table.tableId().equals(created.tableId()) || table.status() != TableStatus.CREATING) {
            throw gone();
        }
        return table;
    }

    private void requireRunning(String doing) {
        if (closed.get()) {
            throw StorageException.validation("cannot " + doing + " the restore into table '" + name()
                    + "': it was closed");
        }
        if (completed.get()) {
            throw StorageException.validation("cannot " + doing + " the restore into table '" + name()
                    + "': it is complete");
        }
    }

    private StorageException gone() {
        return new StorageException(ErrorReason.TABLE_NOT_FOUND, "the restore into table '" + name()
                + "' is no longer running: its table was removed (closed, or no sign of life for "
                + RestoreIdleLimit.SETTING + " " + idleLimit.duration().toMillis() + " ms)");
    }

    private String name() {
        return created.tableName();
    }
}

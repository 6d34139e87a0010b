package dev.stillpoint.ports.core;

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
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.ItemStore;
import dev.stillpoint.ports.out.RestoreStore;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TimeSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One restore between {@code begin} and {@code close} [E4, E5]. Items go in through the adapter's
 * {@link ItemStore}, each checked by {@link ItemRules#forPut} (PutItem's rules) against the definition
 * read in the write's own unit of work, which must still be this restore's table: the same table id,
 * CREATING, its restore in progress. After each item, once a quarter of the idle limit has passed since
 * the last stamp, the stamp is renewed. {@link #close()} without {@link #complete()} removes the table
 * through DeleteTable's drop attempt; it may be called from another thread (a shutdown hook) while a
 * write runs, and the database orders the two.
 */
final class RunningRestore implements RestoreLoad {

    private final TableDescription created;
    private final RestoreStore store;
    private final TableCatalog catalog;
    private final ItemStore items;
    private final TableDeletion deletion;
    private final TimeSource time;
    private final RestoreIdleLimit idleLimit;
    private final AtomicBoolean completed = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    // Touched by the writing thread only (write and complete).
    private TableState state;
    private long stampedAtNanos;

    RunningRestore(TableDescription created, TableState.Restoring state, RestoreStore store, TableCatalog catalog,
                   ItemStore items, TableDeletion deletion, TimeSource time, RestoreIdleLimit idleLimit) {
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
    public void write(List<Item> batch) {
        requireRunning("write to");
        if (batch == null) {
            throw StorageException.validation("items to restore into table '" + name() + "' are required, got null");
        }
        for (int i = 0; i < batch.size(); i++) {
            requireRunning("write to");
            Item item = batch.get(i);
            if (item == null) {
                throw StorageException.validation("item " + (i + 1) + " of " + batch.size()
                        + " to restore into table '" + name() + "' is null");
            }
            try {
                items.put(created.accountId(), name(), table -> ItemRules.forPut(ours(table), item));
            } catch (StorageException e) {
                throw new StorageException(e.reason(), "restore into table '" + name() + "', item " + (i + 1) + " of "
                        + batch.size() + ": " + e.getMessage(), e);
            }
            renewIfDue();
        }
    }

    @Override
    public TableDescription complete() {
        requireRunning("complete");
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
        try {
            deletion.abandonRestore(created.accountId(), name(), created.tableId());
        } catch (StorageException e) {
            // Already removed (by a poller that found it dead) or completed by a racing complete(): nothing to undo.
            if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                throw e;
            }
        }
    }

    private void renewIfDue() {
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

package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.request.TableRules;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.TableRestores;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.RestoreStore;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.util.Objects;
import java.util.Optional;

/**
 * Restores into new tables, once for every backend [E4, E5]: the definition is checked as CreateTable
 * checks it, the lifecycle machine refuses a name in use before anything is written, and the new table
 * is written RESTORING (reported CREATING, its summary in progress) with a stamp "alive until now +
 * {@code restoreIdleLimit}" that the running restore renews (see {@link RunningRestore}).
 */
public final class RestoreService implements TableRestores {

    private final RestoreStore store;
    private final TableCatalog catalog;
    private final ItemWrites items;
    private final TableDeletion deletion;
    private final TimeSource time;
    private final RestoreIdleLimit idleLimit;
    private final StorageEvents events;
    private final Optional<BulkLoads> bulkLoads;

    /**
     * Restores over one backend's ports.
     *
     * @param store the restoring rows
     * @param catalog descriptions, for the completed table
     * @param items where the restored items are written
     * @param deletion DeleteTable's path, which removes an abandoned restore's table
     * @param time the clock of the stamps
     * @param idleLimit how long a restore may give no sign of life before it is taken for dead
     */
    public RestoreService(RestoreStore store, TableCatalog catalog, ItemWrites items, TableDeletion deletion,
                          TimeSource time, RestoreIdleLimit idleLimit) {
        this(store, catalog, items, deletion, time, idleLimit, StorageEvents.NONE);
    }

    /**
     * Restores over one backend's ports, telling {@code events} of every chunk written [X1].
     *
     * @param store the restoring rows
     * @param catalog descriptions, for the completed table
     * @param items where the restored items are written
     * @param deletion DeleteTable's path, which removes an abandoned restore's table
     * @param time the clock of the stamps
     * @param idleLimit how long a restore may give no sign of life before it is taken for dead
     * @param events told how many items each chunk wrote
     */
    public RestoreService(RestoreStore store, TableCatalog catalog, ItemWrites items, TableDeletion deletion,
                          TimeSource time, RestoreIdleLimit idleLimit, StorageEvents events) {
        this(store, catalog, items, deletion, time, idleLimit, events, Optional.empty());
    }

    /**
     * Restores over one backend's ports, loading the items through the backend's bulk path when it has one [B1].
     *
     * @param store the restoring rows
     * @param catalog descriptions, for the completed table
     * @param items where the restored items are written when there is no bulk path
     * @param deletion DeleteTable's path, which removes an abandoned restore's table
     * @param time the clock of the stamps
     * @param idleLimit how long a restore may give no sign of life before it is taken for dead
     * @param events told how many items each chunk wrote
     * @param bulkLoads the backend's bulk loads, or empty
     */
    public RestoreService(RestoreStore store, TableCatalog catalog, ItemWrites items, TableDeletion deletion,
                          TimeSource time, RestoreIdleLimit idleLimit, StorageEvents events,
                          Optional<BulkLoads> bulkLoads) {
        this.bulkLoads = Objects.requireNonNull(bulkLoads, "bulkLoads");
        this.events = Objects.requireNonNull(events, "events");
        this.store = Objects.requireNonNull(store, "store");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.items = Objects.requireNonNull(items, "items");
        this.deletion = Objects.requireNonNull(deletion, "deletion");
        this.time = Objects.requireNonNull(time, "time");
        this.idleLimit = Objects.requireNonNull(idleLimit, "idleLimit");
    }

    @Override
    public RestoreLoad begin(CreateTableRequest definition, RestoreOrigin origin) {
        TableRules.requireCreatable(definition);
        if (origin == null) {
            throw StorageException.validation("the origin of the restore into table '" + definition.tableName()
                    + "' is required, got null");
        }
        TableState current = store.find(definition.accountId(), definition.tableName())
                .map(TableRecord::state)
                .orElse(new TableState.Absent());
        Transition<TableState, TableEffect, TableRefusal> t = TableLifecycle.apply(current,
                new TableEvent.RestoreRequested(time.now(), idleLimit.duration()));
        if (t instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            throw new StorageException(refused.refusal().reason(), "cannot restore into table '"
                    + definition.tableName() + "': " + refused.detail());
        }
        TableDescription created = null;
        for (TableEffect effect : t.effects()) {
            if (effect instanceof TableEffect.InsertRestoring insert) {
                created = store.insertRestoring(definition, origin.summary(true), insert.aliveUntil());
            } else {
                throw StorageException.internal("a restore cannot begin with " + effect, null);
            }
        }
        return new RunningRestore(created, (TableState.Restoring) t.nextOr(current), store, catalog, items,
                deletion, time, idleLimit, events, bulkLoads);
    }
}

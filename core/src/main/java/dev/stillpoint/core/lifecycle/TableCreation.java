package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.TableCreator;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;

/**
 * CreateTable over the catalog: the lifecycle machine refuses a name in any state, DELETING
 * included [D5], and schedules the activation after the control-plane delay [D4].
 */
public final class TableCreation implements TableCreator {

    private final ControlPlaneStore catalog;
    private final TimeSource time;
    private final WakeSignal wake;

    /**
     * CreateTable over {@code catalog}, waking the poller for each new table.
     *
     * @param catalog the backend's control-plane store
     * @param time the clock for activation times
     * @param wake woken when a table is created, so the poller schedules its activation
     */
    public TableCreation(ControlPlaneStore catalog, TimeSource time, WakeSignal wake) {
        this.catalog = catalog;
        this.time = time;
        this.wake = wake;
    }

    /** Creates the table CREATING; the poller activates it once the delay has passed. */
    @Override
    public TableDescription createTable(CreateTableRequest request) {
        TableState current = catalog.find(request.accountId(), request.tableName())
                .map(TableRecord::state)
                .orElse(new TableState.Absent());
        Duration delay = catalog.controlPlaneDelay();
        Transition<TableState, TableEffect, TableRefusal> t =
                TableLifecycle.apply(current, new TableEvent.CreateRequested(time.now(), delay));
        if (t instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            throw new StorageException(refused.refusal().reason(), "cannot create table '" + request.tableName()
                    + "': " + refused.detail());
        }
        TableDescription created = null;
        for (TableEffect effect : t.effects()) {
            if (effect instanceof TableEffect.InsertCreating insert) {
                created = catalog.insertCreating(request, insert.activateAt());
            } else if (effect instanceof TableEffect.WakePoller) {
                wake.wake();
            } else {
                throw StorageException.internal("CreateTable cannot " + effect, null);
            }
        }
        return created;
    }
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableState;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The catalog as the control plane needs it: rows, their states, and the delay setting; and, as every
 * backend with a control plane restores [E4, E5], the restoring rows.
 */
public interface ControlPlaneStore extends RestoreStore {

    /**
     * The configured control-plane delay (default 0.25 s [D8]).
     *
     * @return the delay before a CREATING table turns ACTIVE or a DELETING one is dropped
     */
    Duration controlPlaneDelay();

    /**
     * The table's row, if it has one.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the row, or empty
     */
    @Override
    Optional<TableRecord> find(String accountId, String tableName);

    /**
     * Writes the row CREATING (to activate at {@code activateAt}) and creates its data relations.
     * ResourceInUse when a row of that name appeared meanwhile.
     *
     * @param request the checked CreateTable request
     * @param activateAt when the table turns ACTIVE
     * @return the CREATING table's description
     */
    TableDescription insertCreating(CreateTableRequest request, Instant activateAt);

    /**
     * Sets a CREATING row ACTIVE; false when it is no longer CREATING.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return true when the row was CREATING and is now ACTIVE
     */
    boolean markActive(String accountId, String tableName);

    /**
     * Every CREATING and DELETING row, restoring ones included (as {@code TableState.Restoring}).
     *
     * @return the rows the poller has to look at
     */
    List<PendingTransition> pendingTransitions();

    /**
     * Every restoring row: the pending transitions whose state is {@code TableState.Restoring}.
     *
     * @return the rows, each with its {@code TableState.Restoring} state
     */
    @Override
    default List<PendingTransition> restoringTables() {
        return pendingTransitions().stream().filter(p -> p.state() instanceof TableState.Restoring).toList();
    }
}

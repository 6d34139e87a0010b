package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The catalog as the control plane needs it: rows, their states, and the delay setting. */
public interface ControlPlaneStore {

    /** The configured control-plane delay (default 0.25 s [D8]). */
    Duration controlPlaneDelay();

    /** The table's row, if it has one. */
    Optional<TableRecord> find(String accountId, String tableName);

    /**
     * Writes the row CREATING (to activate at {@code activateAt}) and creates its data relations.
     * ResourceInUse when a row of that name appeared meanwhile.
     */
    TableDescription insertCreating(CreateTableRequest request, Instant activateAt);

    /** Sets a CREATING row ACTIVE; false when it is no longer CREATING. */
    boolean markActive(String accountId, String tableName);

    /** Every CREATING and DELETING row. */
    List<PendingTransition> pendingTransitions();
}

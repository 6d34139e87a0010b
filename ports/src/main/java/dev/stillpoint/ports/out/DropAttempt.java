package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableState;
import java.time.Duration;

/**
 * One attempt to drop a table, inside the backend's catalog unit of work: the row is held against
 * other drops and updates from {@link #record()} until {@link #commit()} or {@link #close()}.
 * The shared machinery decides each step with the lifecycle machine [D5]; the adapter only does it.
 */
public interface DropAttempt extends AutoCloseable {

    /**
     * The table's row as this attempt holds it.
     *
     * @return the catalog row, as read at the start of the attempt
     */
    TableRecord record();

    /**
     * Whether another session holds any lock on any relation the drop would touch (one list for
     * probe and drop) [P6]. Runs in this attempt's own unit of work, never on a second pooled connection.
     *
     * @return true when another session holds a lock the drop would wait for
     */
    boolean probeHolders();

    /**
     * Deletes pending queue rows, then drops the base relation, then each index relation, with
     * every lock wait inside one {@code budget} [P7]. On failure the adapter leaves the relations
     * as they were (the rollback comes as {@link #rollBackDrops()}).
     *
     * @param budget the longest the drop may wait for locks, in all [P7]
     * @return dropped, a lock-wait failure, or another failure
     */
    DropResult dropRelations(Duration budget);

    /** Undoes whatever the drop attempt did; the relations and the row stay. */
    void rollBackDrops();

    /**
     * Writes the row as DELETING with this due time and retry class.
     *
     * @param deleting the DELETING state to record: the due time and retry class
     */
    void markDeleting(TableState.Deleting deleting);

    /** Removes the row; takes effect only with the commit, after every drop's lock was taken. */
    void removeCatalogRow();

    /**
     * Makes everything done so far durable. A backend whose catalog and data commit separately
     * must order its commits so that a failure or crash between them leaves the row (DELETING,
     * for the poller to retry), never a data relation without its row [L2].
     */
    void commit();

    /** Rolls back anything not committed and gives every connection back. */
    @Override
    void close();
}

package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import java.time.Duration;

/**
 * A drop attempt on a backend whose drops never wait behind a reader (no relation locks: MongoDB,
 * Cassandra). {@link TableDeletion} runs it with a zero delay, so the probe answers "free", the drop
 * is synchronous and the table is never left DELETING [C2]; each step is its own durable command, so
 * there is nothing to commit, roll back or release. The adapter supplies the row, the drops and the
 * row's removal.
 */
public abstract class InlineDropAttempt implements DropAttempt {

    /**
     * The table's name, for messages.
     *
     * @return the name of the table being dropped
     */
    protected abstract String tableName();

    /** Drops every data relation of the table, base first; a failure throws its mapped error. */
    protected abstract void dropAll();

    @Override
    public final boolean probeHolders() {
        return false;
    }

    @Override
    public final DropResult dropRelations(Duration budget) {
        dropAll();
        return DropResult.DROPPED;
    }

    @Override
    public final void rollBackDrops() {
        // Only reached after a lock-wait failure, which an inline drop never reports.
    }

    @Override
    public final void markDeleting(TableState.Deleting deleting) {
        throw StorageException.internal("this backend drops a table inline; table '" + tableName()
                + "' cannot be left DELETING", null);
    }

    @Override
    public void commit() {
        // Every step was its own durable command.
    }

    @Override
    public void close() {
        // Nothing is held between the steps.
    }
}

package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.util.Objects;

/**
 * A drop attempt on a backend whose drops never wait behind a reader (no relation locks: MongoDB,
 * Cassandra). {@link TableDeletion} runs it with a zero delay, so the probe answers "free", the drop
 * is synchronous and the table is never left DELETING [C2]; each step is its own durable command, so
 * there is nothing to commit, roll back or release. The adapter supplies the row, the drops and the
 * row's removal.
 */
public final class InlineDropAttempt implements DropAttempt {

    private final TableRecord record;
    private final Runnable dropAll;
    private final Runnable removeCatalogRow;

    /**
     * An attempt on the table {@code record} describes.
     *
     * @param record           the table's catalog row as the attempt found it
     * @param dropAll          drops every data relation of the table, base first; a failure throws its mapped error
     * @param removeCatalogRow removes the table's catalog row, and whatever the backend keeps beside it
     */
    public InlineDropAttempt(TableRecord record, Runnable dropAll, Runnable removeCatalogRow) {
        this.record = Objects.requireNonNull(record, "record");
        this.dropAll = Objects.requireNonNull(dropAll, "dropAll");
        this.removeCatalogRow = Objects.requireNonNull(removeCatalogRow, "removeCatalogRow");
    }

    @Override
    public TableRecord record() {
        return record;
    }

    @Override
    public boolean probeHolders() {
        return false;
    }

    @Override
    public DropResult dropRelations(Duration budget) {
        dropAll.run();
        return DropResult.DROPPED;
    }

    @Override
    public void rollBackDrops() {
        // Only reached after a lock-wait failure, which an inline drop never reports.
    }

    @Override
    public void markDeleting(TableState.Deleting deleting) {
        throw StorageException.internal("this backend drops a table inline; table '"
                + record.description().tableName() + "' cannot be left DELETING", null);
    }

    @Override
    public void removeCatalogRow() {
        removeCatalogRow.run();
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

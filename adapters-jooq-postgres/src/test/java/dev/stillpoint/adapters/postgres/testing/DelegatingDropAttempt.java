package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;

/** A drop attempt that does what the adapter's does; a test overrides the step it wants to act around. */
public class DelegatingDropAttempt implements DropAttempt {

    protected final DropAttempt attempt;

    public DelegatingDropAttempt(DropAttempt attempt) {
        this.attempt = attempt;
    }

    @Override
    public TableRecord record() {
        return attempt.record();
    }

    @Override
    public boolean probeHolders() {
        return attempt.probeHolders();
    }

    @Override
    public DropResult dropRelations(Duration budget) {
        return attempt.dropRelations(budget);
    }

    @Override
    public void rollBackDrops() {
        attempt.rollBackDrops();
    }

    @Override
    public void markDeleting(TableState.Deleting deleting) {
        attempt.markDeleting(deleting);
    }

    @Override
    public void removeCatalogRow() {
        attempt.removeCatalogRow();
    }

    @Override
    public void commit() {
        attempt.commit();
    }

    @Override
    public void close() {
        attempt.close();
    }
}

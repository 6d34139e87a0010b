package dev.stillpoint.domain.lifecycle;

import java.time.Duration;
import java.time.Instant;

/** Work a transition asks the storage adapter to perform, in the order given. */
public sealed interface TableEffect {

    /** Write the catalog row as CREATING, to activate at {@code activateAt}, and create the data relations. */
    record InsertCreating(Instant activateAt) implements TableEffect { }

    /**
     * Write the catalog row CREATING with its restore in progress, alive until {@code aliveUntil}, and
     * create the data relations [E4].
     */
    record InsertRestoring(Instant aliveUntil) implements TableEffect { }

    /** Renew a restoring row's stamp: alive until {@code aliveUntil} [E5]. */
    record RenewRestore(Instant aliveUntil) implements TableEffect { }

    /** Set a restoring row ACTIVE and its restore summary no longer in progress (the time kept) [E4]. */
    record MarkRestored() implements TableEffect { }

    /** Set the catalog row to ACTIVE. */
    record MarkActive() implements TableEffect { }

    /** Set the catalog row to DELETING, due at {@code dueAt}; the row and the data stay. */
    record MarkDeleting(Instant dueAt) implements TableEffect { }

    /** Ask the lock probe about every relation the drop would touch (one list for probe and drop). */
    record ProbeHolders() implements TableEffect { }

    /** Delete pending queue rows, then drop the base relation, then each index relation, within one budget. */
    record DropRelations(Duration budget) implements TableEffect { }

    /** Remove the catalog row; committed together with (after) the drops, never before. */
    record RemoveCatalogRow() implements TableEffect { }

    /** Undo the drop attempt: the relations and the row stay as they were. */
    record RollBackDrops() implements TableEffect { }

    /** Tell the poller to run a pass now. */
    record WakePoller() implements TableEffect { }

    /** Log a drop failure that is not a lock wait; the idle sweep retries it. */
    record ReportDropFailure() implements TableEffect { }
}

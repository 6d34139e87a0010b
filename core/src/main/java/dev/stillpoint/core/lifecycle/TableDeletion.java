package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteTable and the poller's drop retries, over the adapter's {@link DropAttempt}: the lifecycle
 * machine decides every step [D5, P6, P7], this class performs the effects in order and feeds the
 * answers back. The catalog row is removed only after every drop succeeded, in the same commit.
 */
public final class TableDeletion {

    private static final Logger LOG = LoggerFactory.getLogger(TableDeletion.class);

    private final TableDropPort drops;
    private final TimeSource time;
    private final WakeSignal wake;
    private final Supplier<Duration> controlPlaneDelay;

    /**
     * DeleteTable and drop retries over {@code drops}.
     *
     * @param drops the backend's drop port
     * @param time the clock for due times
     * @param wake woken after a commit that leaves work for the poller
     * @param controlPlaneDelay the configured control-plane delay, read at each DeleteTable
     */
    public TableDeletion(TableDropPort drops, TimeSource time, WakeSignal wake, Supplier<Duration> controlPlaneDelay) {
        this.drops = drops;
        this.time = time;
        this.wake = wake;
        this.controlPlaneDelay = controlPlaneDelay;
    }

    /** How one drop attempt ended, for the poller's count of deferred drops. */
    public enum Result {
        /** The table's relations and row are gone. */
        DROPPED,
        /** A holder or a lock-wait failure deferred the drop; the poller retries about a second later. */
        DEFERRED,
        /** The table was marked DELETING for a later pass. */
        SCHEDULED,
        /** The drop failed for another reason; the idle sweep retries it. */
        FAILED,
        /** The table's due time has not come yet. */
        NOT_DUE
    }

    /**
     * DeleteTable: the description with status DELETING, whether the table is gone or deferred.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the table's description, DELETING
     */
    public TableDescription deleteTable(String accountId, String tableName) {
        Duration delay = controlPlaneDelay.get();
        Run run = attempt(accountId, tableName, new TableEvent.DeleteRequested(time.now(), delay));
        return run.description.withStatus(TableStatus.DELETING);
    }

    /**
     * The poller's attempt on a DELETING table: skipped without waiting when held [D8].
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return how the attempt ended
     */
    public Result retryDrop(String accountId, String tableName) {
        return attempt(accountId, tableName, new TableEvent.PollerPass(time.now())).result;
    }

    /**
     * Removes the table of a restore closed without completing [E5], through the same drop attempt as
     * DeleteTable (a holder marks it DELETING for the poller). Nothing happens when the row is another
     * table instance by now; NOT_RESTORING (TableNotFound) when the restore completed meanwhile.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param tableId the abandoned restore's table instance
     * @return how the attempt ended; NOT_DUE when the row is another instance
     */
    public Result abandonRestore(String accountId, String tableName, String tableId) {
        return attempt(accountId, tableName, new TableEvent.RestoreAbandoned(), tableId).result;
    }

    /**
     * The poller's look at a restoring table [E5]: its stamp is read again inside the drop attempt, and
     * only a restore whose stamp has passed is removed.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return how the attempt ended; NOT_DUE when the restore renewed its stamp meanwhile
     */
    public Result removeDeadRestore(String accountId, String tableName) {
        return attempt(accountId, tableName, new TableEvent.RestoreCheck(time.now()), null).result;
    }

    private record Run(TableDescription description, Result result) {
    }

    private Run attempt(String accountId, String tableName, TableEvent first) {
        return attempt(accountId, tableName, first, null);
    }

    private Run attempt(String accountId, String tableName, TableEvent first, String expectedTableId) {
        boolean wakeAfterCommit = false;
        Run run;
        try (DropAttempt attempt = drops.beginDrop(accountId, tableName)) {
            TableDescription description = attempt.record().description();
            TableState state = attempt.record().state();
            if (expectedTableId != null && !expectedTableId.equals(description.tableId())) {
                // The name belongs to another table instance now: not this caller's to remove.
                return new Run(description, Result.NOT_DUE);
            }
            TableEvent event = first;
            while (event != null) {
                Transition<TableState, TableEffect, TableRefusal> t = apply(state, event, tableName);
                state = t.nextOr(state);
                event = null;
                for (TableEffect effect : t.effects()) {
                    wakeAfterCommit |= effect instanceof TableEffect.WakePoller;
                    TableEvent answer = perform(attempt, state, effect, tableName);
                    event = answer != null ? answer : event;
                }
                if (event instanceof TableEvent.DropFinished && callerGaveUp(state)) {
                    // The caller stopped waiting before the removal committed: keep the table and its data.
                    for (TableEffect effect : apply(state, new TableEvent.CallerGaveUp(), tableName).effects()) {
                        perform(attempt, state, effect, tableName);
                    }
                    throw new StorageException(ErrorReason.TRANSIENT,
                            "DeleteTable of '" + tableName + "' was cancelled by its caller; the table stays ACTIVE");
                }
            }
            attempt.commit();
            run = new Run(description, resultOf(first, state));
        }
        if (wakeAfterCommit) {
            wake.wake();
        }
        return run;
    }

    private static Transition<TableState, TableEffect, TableRefusal> apply(TableState state, TableEvent event, String tableName) {
        Transition<TableState, TableEffect, TableRefusal> t = TableLifecycle.apply(state, event);
        if (t instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            throw new StorageException(refused.refusal().reason(),
                    "cannot delete table '" + tableName + "': " + refused.detail());
        }
        return t;
    }

    private static boolean callerGaveUp(TableState state) {
        return Thread.currentThread().isInterrupted()
                && state instanceof TableState.Dropping d && d.path() == TableState.DropPath.SYNCHRONOUS;
    }

    /** Performs one effect; returns the event its answer produces (a probe's or a drop's), else null. */
    private TableEvent perform(DropAttempt attempt, TableState state, TableEffect effect, String tableName) {
        if (effect instanceof TableEffect.ProbeHolders) {
            return new TableEvent.Probed(time.now(), attempt.probeHolders());
        } else if (effect instanceof TableEffect.DropRelations drop) {
            DropResult result = attempt.dropRelations(drop.budget());
            if (result.outcome() == TableEvent.DropOutcome.LOCK_WAIT_FAILED) {
                LOG.info("drop of table '{}' did not complete ({}): {}", tableName, result.outcome(), result.detail());
            } else if (result.outcome() != TableEvent.DropOutcome.DROPPED) {
                // Not a reader in the way: what failed is what an operator must read to mend it.
                LOG.warn("drop of table '{}' did not complete ({}): {}", tableName, result.outcome(), result.detail());
            }
            return new TableEvent.DropFinished(time.now(), result.outcome());
        } else if (effect instanceof TableEffect.RollBackDrops) {
            attempt.rollBackDrops();
        } else if (effect instanceof TableEffect.MarkDeleting) {
            attempt.markDeleting((TableState.Deleting) state);
        } else if (effect instanceof TableEffect.RemoveCatalogRow) {
            attempt.removeCatalogRow();
        } else if (effect instanceof TableEffect.ReportDropFailure) {
            LOG.warn("table '{}' stays DELETING after a drop failure that is not a lock wait; "
                    + "the idle sweep retries it", tableName);
        } else if (effect instanceof TableEffect.InsertCreating || effect instanceof TableEffect.MarkActive
                || effect instanceof TableEffect.InsertRestoring || effect instanceof TableEffect.RenewRestore
                || effect instanceof TableEffect.MarkRestored) {
            throw StorageException.internal("a drop attempt cannot " + effect, null);
        }
        return null;
    }

    private static Result resultOf(TableEvent first, TableState end) {
        return switch (end.kind()) {
            case GONE -> Result.DROPPED;
            case DELETING -> switch (((TableState.Deleting) end).retry()) {
                case DEFERRED -> Result.DEFERRED;
                case FAILED -> Result.FAILED;
                case SCHEDULED -> first instanceof TableEvent.PollerPass ? Result.NOT_DUE : Result.SCHEDULED;
            };
            // A restore check that found the restore alive changed nothing.
            case RESTORING -> Result.NOT_DUE;
            case ABSENT, CREATING, ACTIVE, PROBING, DROPPING -> Result.FAILED;
        };
    }
}

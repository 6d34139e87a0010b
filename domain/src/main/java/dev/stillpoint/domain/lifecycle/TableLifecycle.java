package dev.stillpoint.domain.lifecycle;

import dev.stillpoint.domain.lifecycle.TableEffect.DropRelations;
import dev.stillpoint.domain.lifecycle.TableEffect.InsertCreating;
import dev.stillpoint.domain.lifecycle.TableEffect.InsertRestoring;
import dev.stillpoint.domain.lifecycle.TableEffect.MarkActive;
import dev.stillpoint.domain.lifecycle.TableEffect.MarkDeleting;
import dev.stillpoint.domain.lifecycle.TableEffect.MarkRestored;
import dev.stillpoint.domain.lifecycle.TableEffect.ProbeHolders;
import dev.stillpoint.domain.lifecycle.TableEffect.RemoveCatalogRow;
import dev.stillpoint.domain.lifecycle.TableEffect.RenewRestore;
import dev.stillpoint.domain.lifecycle.TableEffect.ReportDropFailure;
import dev.stillpoint.domain.lifecycle.TableEffect.RollBackDrops;
import dev.stillpoint.domain.lifecycle.TableEffect.WakePoller;
import dev.stillpoint.domain.lifecycle.TableEvent.CreateRequested;
import dev.stillpoint.domain.lifecycle.TableEvent.DeleteRequested;
import dev.stillpoint.domain.lifecycle.TableEvent.DropFinished;
import dev.stillpoint.domain.lifecycle.TableState.Active;
import dev.stillpoint.domain.lifecycle.TableState.Creating;
import dev.stillpoint.domain.lifecycle.TableState.Deleting;
import dev.stillpoint.domain.lifecycle.TableState.DropPath;
import dev.stillpoint.domain.lifecycle.TableState.DropRetry;
import dev.stillpoint.domain.lifecycle.TableState.Dropping;
import dev.stillpoint.domain.lifecycle.TableState.Gone;
import dev.stillpoint.domain.lifecycle.TableState.Probing;
import dev.stillpoint.domain.lifecycle.TableState.Restoring;
import dev.stillpoint.domain.machine.Transition;
import java.time.Duration;
import java.time.Instant;

/**
 * The table lifecycle and the DeleteTable decision as one pure transition function [D4, D5], and a
 * restore's life: a table created RESTORING that only its restore completes, and that goes the way
 * of a dropped table when its restore is abandoned or found dead [E4, E5].
 * Every (state, event) pair has an answer: a move with effects, or a named refusal.
 */
public final class TableLifecycle {

    /** At or above this control-plane delay DeleteTable never probes and never drops inline [D5]. */
    public static final Duration SYNCHRONOUS_DELETE_LIMIT = Duration.ofSeconds(1);

    /** One budget for every lock wait of one drop attempt, the base relation's and each index's [P7]. */
    public static final Duration DROP_BUDGET = Duration.ofSeconds(1);

    /** How long after a non-lock drop failure the next attempt is due: the idle sweep [D8]. */
    public static final Duration FAILED_DROP_RETRY = Duration.ofSeconds(60);

    private TableLifecycle() {
    }

    /**
     * The answer of the lifecycle to {@code event} in {@code state}.
     *
     * @param state the table's current state
     * @param event what happened to the table
     * @return the next state and its effects, or a refusal leaving {@code state} as it was
     */
    public static Transition<TableState, TableEffect, TableRefusal> apply(TableState state, TableEvent event) {
        return switch (event.kind()) {
            case CREATE_REQUESTED -> create(state, (CreateRequested) event);
            case ACTIVATION_CHECK -> activate(state, ((TableEvent.ActivationCheck) event).now());
            case DELETE_REQUESTED -> delete(state, (DeleteRequested) event);
            case PROBED -> probed(state, (TableEvent.Probed) event);
            case DROP_FINISHED -> dropFinished(state, (DropFinished) event);
            case CALLER_GAVE_UP -> callerGaveUp(state);
            case POLLER_PASS -> pollerPass(state, ((TableEvent.PollerPass) event).now());
            case RESTORE_REQUESTED -> restoreRequested(state, (TableEvent.RestoreRequested) event);
            case RESTORE_RENEWED -> restoreRenewed(state, (TableEvent.RestoreRenewed) event);
            case RESTORE_COMPLETED -> restoring(state)
                    ? Transition.to(new Active(), new MarkRestored()) : notRestoring(state);
            case RESTORE_ABANDONED -> restoring(state)
                    ? Transition.to(new Probing(DropPath.RESTORE), new ProbeHolders()) : notRestoring(state);
            case RESTORE_CHECK -> restoreCheck(state, ((TableEvent.RestoreCheck) event).now());
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> create(TableState state, CreateRequested e) {
        return switch (state.kind()) {
            case ABSENT -> {
                Instant at = e.now().plus(e.controlPlaneDelay());
                yield Transition.to(new Creating(at), new InsertCreating(at), new WakePoller());
            }
            case CREATING, RESTORING, ACTIVE, PROBING, DROPPING, DELETING -> nameInUse(state);
            case GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "this table instance is gone; create a new one");
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> nameInUse(TableState state) {
        return refuse(TableRefusal.NAME_IN_USE, "a table of this name exists and is "
                + (state.kind() == TableState.Kind.RESTORING ? "CREATING (being restored)" : state.kind()));
    }

    private static Transition<TableState, TableEffect, TableRefusal> restoreRequested(TableState state,
                                                                                   TableEvent.RestoreRequested e) {
        return switch (state.kind()) {
            case ABSENT -> {
                Instant aliveUntil = e.now().plus(e.aliveFor());
                yield Transition.to(new Restoring(aliveUntil), new InsertRestoring(aliveUntil));
            }
            case CREATING, RESTORING, ACTIVE, PROBING, DROPPING, DELETING -> nameInUse(state);
            case GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "this table instance is gone; restore into a new one");
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> restoreRenewed(TableState state,
                                                                                 TableEvent.RestoreRenewed e) {
        if (!restoring(state)) {
            return notRestoring(state);
        }
        Instant aliveUntil = e.now().plus(e.aliveFor());
        return Transition.to(new Restoring(aliveUntil), new RenewRestore(aliveUntil));
    }

    private static Transition<TableState, TableEffect, TableRefusal> restoreCheck(TableState state, Instant now) {
        if (!restoring(state)) {
            return notRestoring(state);
        }
        // A restore that renewed its stamp in time is alive: nothing changes.
        return now.isBefore(((Restoring) state).aliveUntil())
                ? Transition.to(state)
                : Transition.to(new Probing(DropPath.RESTORE), new ProbeHolders());
    }

    private static boolean restoring(TableState state) {
        return state.kind() == TableState.Kind.RESTORING;
    }

    private static Transition<TableState, TableEffect, TableRefusal> notRestoring(TableState state) {
        return switch (state.kind()) {
            case ABSENT, GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "the restored table is gone");
            case CREATING, ACTIVE, PROBING, DROPPING, DELETING, RESTORING ->
                    refuse(TableRefusal.NOT_RESTORING, "the table is " + state.kind() + ", not being restored");
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> activate(TableState state, Instant now) {
        return switch (state.kind()) {
            case CREATING -> {
                Creating c = (Creating) state;
                yield now.isBefore(c.activateAt())
                        ? Transition.to(state)
                        : Transition.to(new Active(), new MarkActive());
            }
            case ABSENT, GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "no table to activate");
            case RESTORING -> refuse(TableRefusal.HELD_BY_RESTORE, "table is being restored; only its restore completes it");
            case ACTIVE, PROBING, DROPPING, DELETING -> refuse(TableRefusal.NOT_CREATING, "table is " + state.kind());
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> delete(TableState state, DeleteRequested e) {
        return switch (state.kind()) {
            case ACTIVE -> e.controlPlaneDelay().compareTo(SYNCHRONOUS_DELETE_LIMIT) >= 0
                    // A long delay means the caller expects DELETING: no probe, no inline drop.
                    ? Transition.to(new Deleting(e.now().plus(e.controlPlaneDelay()), DropRetry.SCHEDULED),
                            new MarkDeleting(e.now().plus(e.controlPlaneDelay())), new WakePoller())
                    : Transition.to(new Probing(DropPath.SYNCHRONOUS), new ProbeHolders());
            // Already DELETING: the caller gets the description and nothing changes [D5, Q5].
            case DELETING -> Transition.to(state);
            case PROBING, DROPPING -> refuse(TableRefusal.DELETE_IN_PROGRESS, "another drop attempt holds the table");
            case CREATING -> refuse(TableRefusal.STILL_CREATING, "table is still CREATING");
            // A restore whose stamp has passed is dead [E5]: DeleteTable removes it as the poller's sweep would,
            // rather than refuse it as if a restore were still filling it.
            case RESTORING -> e.now().isBefore(((Restoring) state).aliveUntil())
                    ? refuse(TableRefusal.STILL_CREATING, "table is still CREATING: a restore is filling it")
                    : Transition.to(new Probing(DropPath.RESTORE), new ProbeHolders());
            case ABSENT, GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "no table to delete");
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> probed(TableState state, TableEvent.Probed e) {
        if (state.kind() != TableState.Kind.PROBING) {
            return refuse(TableRefusal.NO_PROBE_PENDING, "table is " + state.kind());
        }
        DropPath path = ((Probing) state).path();
        if (!e.held()) {
            return Transition.to(new Dropping(path), new DropRelations(DROP_BUDGET));
        }
        // A holder defers the drop with the row kept; the request never waits behind a reader.
        return switch (path) {
            // The row is still ACTIVE (or CREATING, for a restore): it must say DELETING from now on.
            case SYNCHRONOUS, RESTORE -> Transition.to(new Deleting(e.now(), DropRetry.DEFERRED),
                    new MarkDeleting(e.now()), new WakePoller());
            case POLLER -> Transition.to(new Deleting(e.now(), DropRetry.DEFERRED));
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> dropFinished(TableState state, DropFinished e) {
        if (state.kind() != TableState.Kind.DROPPING) {
            return refuse(TableRefusal.NO_DROP_PENDING, "table is " + state.kind());
        }
        return switch (e.outcome()) {
            case DROPPED -> Transition.to(new Gone(), new RemoveCatalogRow());
            case LOCK_WAIT_FAILED -> Transition.to(new Deleting(e.now(), DropRetry.DEFERRED),
                    new RollBackDrops(), new MarkDeleting(e.now()), new WakePoller());
            // Not a holder: retrying every second would only repeat the failure [D8].
            case OTHER_FAILURE -> {
                Instant retryAt = e.now().plus(FAILED_DROP_RETRY);
                yield Transition.to(new Deleting(retryAt, DropRetry.FAILED),
                        new RollBackDrops(), new MarkDeleting(retryAt), new ReportDropFailure());
            }
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> callerGaveUp(TableState state) {
        return switch (state.kind()) {
            // Before the removal commits nothing is lost: roll back and stay ACTIVE with the data.
            case PROBING, DROPPING -> switch (pathOf(state)) {
                case SYNCHRONOUS -> Transition.to(new Active(), new RollBackDrops());
                case POLLER -> refuse(TableRefusal.NO_CALLER_WAITING, "the poller's drop has no caller");
                // Half a restore is worth nothing: its removal goes on whoever stops waiting [E5].
                case RESTORE -> refuse(TableRefusal.NO_CALLER_WAITING, "an abandoned restore's table is removed regardless");
            };
            case ABSENT, CREATING, RESTORING, ACTIVE, DELETING, GONE ->
                    refuse(TableRefusal.NO_CALLER_WAITING, "table is " + state.kind());
        };
    }

    private static Transition<TableState, TableEffect, TableRefusal> pollerPass(TableState state, Instant now) {
        return switch (state.kind()) {
            case DELETING -> now.isBefore(((Deleting) state).dueAt())
                    ? Transition.to(state)
                    : Transition.to(new Probing(DropPath.POLLER), new ProbeHolders());
            case ABSENT, GONE -> refuse(TableRefusal.NO_SUCH_TABLE, "no table to drop");
            case CREATING, RESTORING, ACTIVE, PROBING, DROPPING -> refuse(TableRefusal.NOT_DELETING, "table is " + state.kind());
        };
    }

    private static DropPath pathOf(TableState state) {
        return state instanceof Probing p ? p.path() : ((Dropping) state).path();
    }

    private static Transition<TableState, TableEffect, TableRefusal> refuse(TableRefusal refusal, String detail) {
        return Transition.refuse(refusal, detail);
    }
}

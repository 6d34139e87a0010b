package dev.stillpoint.domain.lifecycle;

import java.time.Duration;
import java.time.Instant;

/** What can happen to a table instance [D4, D5]; time always arrives inside the event. */
public sealed interface TableEvent {

    /**
     * The event's kind, so transitions can switch exhaustively over it.
     *
     * @return the kind of this event
     */
    Kind kind();

    /** The kinds of table event. */
    enum Kind {
        /** CreateTable was asked for. */
        CREATE_REQUESTED,
        /** The poller looks at a CREATING table. */
        ACTIVATION_CHECK,
        /** DeleteTable was asked for. */
        DELETE_REQUESTED,
        /** The lock probe answered. */
        PROBED,
        /** The drop of the data relations ended. */
        DROP_FINISHED,
        /** The DeleteTable caller stopped waiting. */
        CALLER_GAVE_UP,
        /** A poller pass reaches a DELETING table. */
        POLLER_PASS,
        /** A restore into a new table was asked for [E4]. */
        RESTORE_REQUESTED,
        /** A running restore renews its stamp [E5]. */
        RESTORE_RENEWED,
        /** Every item of a restore is in [E4]. */
        RESTORE_COMPLETED,
        /** A restore was closed without completing [E5]. */
        RESTORE_ABANDONED,
        /** A poller pass looks at a restoring table's stamp [E5]. */
        RESTORE_CHECK
    }

    /** CreateTable with the control-plane delay in force. */
    record CreateRequested(Instant now, Duration controlPlaneDelay) implements TableEvent {
        public Kind kind() { return Kind.CREATE_REQUESTED; }
    }

    /** The poller looks at a CREATING table. */
    record ActivationCheck(Instant now) implements TableEvent {
        public Kind kind() { return Kind.ACTIVATION_CHECK; }
    }

    /** DeleteTable with the control-plane delay in force. */
    record DeleteRequested(Instant now, Duration controlPlaneDelay) implements TableEvent {
        public Kind kind() { return Kind.DELETE_REQUESTED; }
    }

    /** The lock probe's answer: whether any other session holds any of the table's relations. */
    record Probed(Instant now, boolean held) implements TableEvent {
        public Kind kind() { return Kind.PROBED; }
    }

    /** How the drop of every data relation ended. */
    record DropFinished(Instant now, DropOutcome outcome) implements TableEvent {
        public Kind kind() { return Kind.DROP_FINISHED; }
    }

    /** The DeleteTable caller stopped waiting (cancelled or timed out) before the removal committed. */
    record CallerGaveUp() implements TableEvent {
        public Kind kind() { return Kind.CALLER_GAVE_UP; }
    }

    /** A poller pass reaches a DELETING table. */
    record PollerPass(Instant now) implements TableEvent {
        public Kind kind() { return Kind.POLLER_PASS; }
    }

    /** A restore into a new table, alive for {@code aliveFor} unless renewed [E4, E5]. */
    record RestoreRequested(Instant now, Duration aliveFor) implements TableEvent {
        public Kind kind() { return Kind.RESTORE_REQUESTED; }
    }

    /** A running restore renews its stamp: alive for {@code aliveFor} from {@code now} [E5]. */
    record RestoreRenewed(Instant now, Duration aliveFor) implements TableEvent {
        public Kind kind() { return Kind.RESTORE_RENEWED; }
    }

    /** Every item and index entry of a restore is in [E4]. */
    record RestoreCompleted() implements TableEvent {
        public Kind kind() { return Kind.RESTORE_COMPLETED; }
    }

    /** The restore was closed without completing: its table goes [E5]. */
    record RestoreAbandoned() implements TableEvent {
        public Kind kind() { return Kind.RESTORE_ABANDONED; }
    }

    /** A poller pass looks at a restoring table: past its stamp, the restore is dead [E5]. */
    record RestoreCheck(Instant now) implements TableEvent {
        public Kind kind() { return Kind.RESTORE_CHECK; }
    }

    /** How a drop attempt ended. */
    enum DropOutcome {
        /** Every relation's drop lock was taken; the removal may commit. */
        DROPPED,
        /** Lock timeout, deadlock victim or statement timeout: someone holds a relation. */
        LOCK_WAIT_FAILED,
        /** Anything else (a dependent view, a broken relation): not a holder, so not deferred. */
        OTHER_FAILURE
    }
}

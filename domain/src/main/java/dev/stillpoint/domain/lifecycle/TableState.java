package dev.stillpoint.domain.lifecycle;

import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;

/**
 * Where one table instance stands in its lifecycle [D4]: CREATING -> ACTIVE -> DELETING -> gone,
 * with the two short phases a DeleteTable passes through (probing for holders, dropping), and
 * RESTORING: a table a restore is filling [E4], reported CREATING, which only its restore makes ACTIVE.
 */
public sealed interface TableState {

    /**
     * The state's kind, so transitions can switch exhaustively over it.
     *
     * @return the kind of this state
     */
    Kind kind();

    /**
     * The state a catalog row records, read back: its status, its due time (the activation time of a CREATING
     * row, a restore's stamp [E5], the next drop attempt of a DELETING row), whether its restore is in
     * progress (a CREATING row is then RESTORING), and a DELETING row's retry kind. The SQL catalogs and
     * MongoDB's store these fields alike; this is the one reading of them.
     *
     * @param status    the row's status
     * @param due       the row's due time
     * @param restoring whether the row's restore is in progress
     * @param retry     a DELETING row's retry kind
     * @return the row's lifecycle state
     */
    static TableState recorded(TableStatus status, Instant due, boolean restoring, DropRetry retry) {
        return switch (status) {
            case CREATING -> restoring ? new Restoring(due) : new Creating(due);
            case ACTIVE -> new Active();
            case DELETING -> new Deleting(due, retry);
        };
    }

    /** The kinds of table state. */
    enum Kind {
        /** No catalog row yet. */
        ABSENT,
        /** Created; waiting out the control-plane delay. */
        CREATING,
        /** Being filled by a restore; reported CREATING, never activated by the delay [E4]. */
        RESTORING,
        /** Serving reads and writes. */
        ACTIVE,
        /** A drop attempt is probing for lock holders. */
        PROBING,
        /** A drop attempt is dropping the data relations. */
        DROPPING,
        /** Reported DELETING; waiting for the poller. */
        DELETING,
        /** Catalog row and data relations removed. */
        GONE
    }

    /** No catalog row yet: the only state a CreateTable is accepted in. */
    record Absent() implements TableState {
        public Kind kind() { return Kind.ABSENT; }
    }

    /** Created; becomes ACTIVE once the control-plane delay has passed. */
    record Creating(Instant activateAt) implements TableState {
        public Kind kind() { return Kind.CREATING; }
    }

    /**
     * Being filled by a restore [E4]: reported CREATING with its restore in progress. Only the restore
     * completes it; once {@code aliveUntil} has passed without a renewal the restore is taken for dead
     * and the table is removed [E5].
     *
     * @param aliveUntil until when the restore's last stamp vouches that it runs
     */
    record Restoring(Instant aliveUntil) implements TableState {
        public Kind kind() { return Kind.RESTORING; }
    }

    /** Serving reads and writes. */
    record Active() implements TableState {
        public Kind kind() { return Kind.ACTIVE; }
    }

    /** A drop attempt is asking the lock probe whether another session holds a relation. */
    record Probing(DropPath path) implements TableState {
        public Kind kind() { return Kind.PROBING; }
    }

    /** A drop attempt is dropping the data relations within its budget; the row is still there. */
    record Dropping(DropPath path) implements TableState {
        public Kind kind() { return Kind.DROPPING; }
    }

    /** Reported DELETING; the poller drops the relations once {@code dueAt} has passed. */
    record Deleting(Instant dueAt, DropRetry retry) implements TableState {
        public Kind kind() { return Kind.DELETING; }
    }

    /** Catalog row and every data relation removed. Terminal: the name may be created afresh. */
    record Gone() implements TableState {
        public Kind kind() { return Kind.GONE; }
    }

    /** Who is running a drop attempt: the DeleteTable request itself, or the poller later. */
    enum DropPath {
        /** The DeleteTable request runs the drop itself. */
        SYNCHRONOUS,
        /** The poller runs the drop in a later pass. */
        POLLER,
        /**
         * An abandoned restore's table is removed, by its own close or by a poller pass that found it
         * dead [E5]: the row is still CREATING (so a holder marks it DELETING), and a caller giving
         * up never keeps it.
         */
        RESTORE
    }

    /**
     * Why a DELETING table is waiting. Only {@link #DEFERRED} keeps the poller in its
     * one-second loop [D8]; a drop that failed for another reason waits for the idle sweep.
     */
    enum DropRetry {
        /** DeleteTable with a control-plane delay of a second or more: dropped when due. */
        SCHEDULED,
        /** A holder or a lock-wait failure stopped the drop: retried about once a second. */
        DEFERRED,
        /** The drop failed for a reason other than a lock wait: retried on the idle sweep. */
        FAILED
    }
}

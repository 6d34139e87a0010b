package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A poller pass's look at restoring tables [E5]: a table whose restore's stamp has passed belongs to a
 * restore that died (its process was killed, or it gave no sign of life for its whole idle limit) and is
 * removed through {@link TableDeletion#removeDeadRestore}, which reads the stamp again inside its drop
 * attempt; a live one is due again when its stamp passes, so the poller comes back then.
 */
public final class RestoreSweep {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreSweep.class);

    private final TableDeletion deletion;
    private final TimeSource time;

    /**
     * A sweep removing dead restores through {@code deletion}.
     *
     * @param deletion the drop path
     * @param time the clock the stamps are compared with
     */
    public RestoreSweep(TableDeletion deletion, TimeSource time) {
        this.deletion = deletion;
        this.time = time;
    }

    /**
     * What one look at a restoring table found.
     *
     * @param deferred whether its removal was deferred behind a holder or a lock wait
     * @param nextDue when to look again, if ever
     */
    public record Outcome(boolean deferred, Optional<Instant> nextDue) {
    }

    /**
     * Looks at one restoring table; a row in another state is none of this sweep's business.
     *
     * @param pending the row as the pass listed it
     * @return whether its removal was deferred, and when it is due again
     */
    public Outcome check(PendingTransition pending) {
        if (!(pending.state() instanceof TableState.Restoring restoring)) {
            return new Outcome(false, Optional.empty());
        }
        // The listed stamp decides whether a drop attempt is worth starting; the attempt decides on a fresh read.
        if (TableLifecycle.apply(restoring, new TableEvent.RestoreCheck(time.now())).effects().isEmpty()) {
            return new Outcome(false, Optional.of(restoring.aliveUntil()));
        }
        LOG.info("table '{}' of account '{}': its restore gave no sign of life since {}; removing it",
                pending.tableName(), pending.accountId(), restoring.aliveUntil());
        return switch (deletion.removeDeadRestore(pending.accountId(), pending.tableName())) {
            case DEFERRED -> new Outcome(true, Optional.empty());
            case DROPPED, SCHEDULED -> new Outcome(false, Optional.empty());
            case NOT_DUE, FAILED -> new Outcome(false, Optional.of(time.now().plus(TableLifecycle.DROP_BUDGET)));
        };
    }

    /**
     * Looks at every restoring table, one failure never stopping the others (a backend without a
     * control-plane pass runs this from its own poller).
     *
     * @param restoring the restoring rows
     * @return the number of removals deferred, and the earliest time one is due again
     */
    public Outcome run(List<PendingTransition> restoring) {
        boolean deferred = false;
        Optional<Instant> nextDue = Optional.empty();
        for (PendingTransition pending : restoring) {
            try {
                Outcome outcome = check(pending);
                deferred |= outcome.deferred();
                nextDue = earlier(nextDue, outcome.nextDue());
            } catch (StorageException e) {
                LOG.warn("restore sweep: table '{}' of account '{}': {}", pending.tableName(), pending.accountId(),
                        e.getMessage());
            }
        }
        return new Outcome(deferred, nextDue);
    }

    static Optional<Instant> earlier(Optional<Instant> a, Optional<Instant> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        return a.get().isBefore(b.get()) ? a : b;
    }
}

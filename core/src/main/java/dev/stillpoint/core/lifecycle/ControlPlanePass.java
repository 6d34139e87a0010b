package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One poller pass [D8]: activates every CREATING table that is due, tries every DELETING one
 * (skipping a held table without waiting), and removes every restoring table whose restore died [E5]. Reports how many drops it deferred, counting only
 * holders and lock-wait failures, and the next due time. It remembers since when each deferred drop
 * has been deferred, for {@link StorageEvents.DeferredDrops} [X1].
 */
public final class ControlPlanePass {

    private static final Logger LOG = LoggerFactory.getLogger(ControlPlanePass.class);

    private final ControlPlaneStore catalog;
    private final TableDeletion deletion;
    private final TimeSource time;
    private final RestoreSweep restores;
    /** The tables the last pass deferred, by account and name, with the first pass that deferred each. */
    private volatile Map<PendingAddress, Instant> deferredSince = Map.of();

    /**
     * A pass over {@code catalog}'s pending rows.
     *
     * @param catalog the backend's control-plane store
     * @param deletion the drop path for DELETING tables
     * @param time the clock deciding what is due
     */
    public ControlPlanePass(ControlPlaneStore catalog, TableDeletion deletion, TimeSource time) {
        this.catalog = catalog;
        this.deletion = deletion;
        this.time = time;
        this.restores = new RestoreSweep(deletion, time);
    }

    /**
     * The drops the last pass deferred, read live: how many, and the age of the longest-waiting one.
     *
     * @return a view a gauge may read from any thread
     */
    public StorageEvents.DeferredDrops deferredDrops() {
        return new StorageEvents.DeferredDrops() {
            @Override
            public int pending() {
                return deferredSince.size();
            }

            @Override
            public Duration oldest() {
                Instant now = time.now();
                return deferredSince.values().stream().min(Instant::compareTo)
                        .map(since -> Duration.between(since, now)).filter(d -> !d.isNegative()).orElse(Duration.ZERO);
            }
        };
    }

    private record PendingAddress(String accountId, String tableName) {
    }

    /**
     * Runs the pass and reports it as the poller's {@code PassFinished} event.
     *
     * @return the pass's event: drops deferred and the next due time
     */
    public PollerEvent.PassFinished run() {
        int deferred = 0;
        Optional<Instant> nextDue = Optional.empty();
        Map<PendingAddress, Instant> before = deferredSince;
        Map<PendingAddress, Instant> stillDeferred = new HashMap<>();
        Instant passStart = time.now();
        for (PendingTransition pending : catalog.pendingTransitions()) {
            PendingAddress address = new PendingAddress(pending.accountId(), pending.tableName());
            try {
                switch (pending.state().kind()) {
                    case CREATING -> nextDue = earlier(nextDue, activate(pending));
                    case DELETING -> {
                        TableDeletion.Result result = deletion.retryDrop(pending.accountId(), pending.tableName());
                        if (result == TableDeletion.Result.DEFERRED) {
                            deferred++;
                            stillDeferred.put(address, before.getOrDefault(address, passStart));
                        } else if (result == TableDeletion.Result.NOT_DUE || result == TableDeletion.Result.FAILED) {
                            nextDue = earlier(nextDue, Optional.of(((TableState.Deleting) pending.state()).dueAt()));
                        }
                    }
                    case RESTORING -> {
                        RestoreSweep.Outcome outcome = restores.check(pending);
                        if (outcome.deferred()) {
                            deferred++;
                            stillDeferred.put(address, before.getOrDefault(address, passStart));
                        }
                        nextDue = earlier(nextDue, outcome.nextDue());
                    }
                    case ABSENT, ACTIVE, PROBING, DROPPING, GONE -> { }
                }
            } catch (StorageException e) {
                // One table's failure must not stop the pass for the others; the next pass retries.
                LOG.warn("control-plane pass: table '{}' of account '{}': {}", pending.tableName(),
                        pending.accountId(), e.getMessage());
            }
        }
        // A drop no longer deferred (dropped, or its table gone) leaves the view with this pass.
        deferredSince = Map.copyOf(stillDeferred);
        return new PollerEvent.PassFinished(time.now(), deferred, nextDue);
    }

    /** Activates a due CREATING table; returns its due time when it is not due yet. */
    private Optional<Instant> activate(PendingTransition pending) {
        Transition<TableState, TableEffect, TableRefusal> t =
                TableLifecycle.apply(pending.state(), new TableEvent.ActivationCheck(time.now()));
        for (TableEffect effect : t.effects()) {
            if (effect instanceof TableEffect.MarkActive) {
                catalog.markActive(pending.accountId(), pending.tableName());
                return Optional.empty();
            }
        }
        return Optional.of(((TableState.Creating) pending.state()).activateAt());
    }

    private static Optional<Instant> earlier(Optional<Instant> a, Optional<Instant> b) {
        return RestoreSweep.earlier(a, b);
    }
}

package dev.stillpoint.domain.poller;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.poller.PollerEffect.Exit;
import dev.stillpoint.domain.poller.PollerEffect.RunPass;
import dev.stillpoint.domain.poller.PollerEffect.WaitForWakeOrTimer;
import dev.stillpoint.domain.poller.PollerEvent.PassFinished;
import dev.stillpoint.domain.poller.PollerState.Active;
import dev.stillpoint.domain.poller.PollerState.Idle;
import dev.stillpoint.domain.poller.PollerState.Running;
import dev.stillpoint.domain.poller.PollerState.RunningWoken;
import java.time.Duration;
import java.time.Instant;

/**
 * The control-plane poller's schedule as a pure transition function [D8]. Idle: a sweep every
 * {@code idleInterval} or on a wake. Active while any drop is deferred: a pass every
 * {@code activeInterval} and at once on a wake. Startup runs a pass first, so a drop deferred
 * before a restart keeps the poller active.
 */
public record PollerSchedule(Duration idleInterval, Duration activeInterval) {

    /** The production cadence: a 60 s idle sweep and a 1 s active loop. */
    public static final PollerSchedule DEFAULT = new PollerSchedule(Duration.ofSeconds(60), Duration.ofSeconds(1));

    /**
     * Refuses an interval that is not positive.
     *
     * @param idleInterval the wait between sweeps while nothing is deferred
     * @param activeInterval the wait between passes while a drop is deferred
     */
    public PollerSchedule {
        if (idleInterval.isNegative() || idleInterval.isZero() || activeInterval.isNegative() || activeInterval.isZero()) {
            throw new IllegalArgumentException("poller intervals must be positive: idle " + idleInterval
                    + ", active " + activeInterval);
        }
    }

    /**
     * The initial state.
     *
     * @return the state a poller starts in, before startup recovery
     */
    public static PollerState starting() {
        return new PollerState.Starting();
    }

    /**
     * The answer of the schedule to {@code event} in {@code state}.
     *
     * @param state the poller's current state
     * @param event what happened to the poller
     * @return the next state and its effects, or a refusal leaving {@code state} as it was
     */
    public Transition<PollerState, PollerEffect, PollerRefusal> apply(PollerState state, PollerEvent event) {
        if (event.kind() == PollerEvent.Kind.STOP_REQUESTED) {
            return state.kind() == PollerState.Kind.STOPPED
                    ? Transition.to(state)
                    : Transition.to(new PollerState.Stopped(), new Exit());
        }
        return switch (state.kind()) {
            case STARTING -> event.kind() == PollerEvent.Kind.STARTED
                    ? Transition.to(new Running(), new RunPass())
                    : Transition.refuse(PollerRefusal.NOT_STARTED, event + " before start");
            case IDLE -> waiting(state, ((Idle) state).wakeAt(), event);
            case ACTIVE -> waiting(state, ((Active) state).wakeAt(), event);
            case RUNNING -> switch (event.kind()) {
                case WOKEN -> Transition.to(new RunningWoken());
                case PASS_FINISHED -> afterPass((PassFinished) event, false);
                // The pass is already running; its end decides the next wait.
                case TIMER_FIRED -> Transition.to(state);
                case STARTED -> Transition.refuse(PollerRefusal.ALREADY_STARTED, "started twice");
                case STOP_REQUESTED -> Transition.to(new PollerState.Stopped(), new Exit());
            };
            case RUNNING_WOKEN -> switch (event.kind()) {
                case WOKEN, TIMER_FIRED -> Transition.to(state);
                case PASS_FINISHED -> afterPass((PassFinished) event, true);
                case STARTED -> Transition.refuse(PollerRefusal.ALREADY_STARTED, "started twice");
                case STOP_REQUESTED -> Transition.to(new PollerState.Stopped(), new Exit());
            };
            case STOPPED -> Transition.refuse(PollerRefusal.STOPPED, event + " after stop");
        };
    }

    private Transition<PollerState, PollerEffect, PollerRefusal> waiting(PollerState state, Instant wakeAt, PollerEvent event) {
        return switch (event.kind()) {
            case WOKEN -> Transition.to(new Running(), new RunPass());
            case TIMER_FIRED -> ((PollerEvent.TimerFired) event).now().isBefore(wakeAt)
                    // Woke early with no signal: keep waiting for the same deadline.
                    ? Transition.to(state, new WaitForWakeOrTimer(wakeAt))
                    : Transition.to(new Running(), new RunPass());
            case PASS_FINISHED -> Transition.refuse(PollerRefusal.NO_PASS_RUNNING, "no pass is running in " + state);
            case STARTED -> Transition.refuse(PollerRefusal.ALREADY_STARTED, "started twice");
            case STOP_REQUESTED -> Transition.to(new PollerState.Stopped(), new Exit());
        };
    }

    private Transition<PollerState, PollerEffect, PollerRefusal> afterPass(PassFinished done, boolean wokenMeanwhile) {
        if (wokenMeanwhile) {
            return Transition.to(new Running(), new RunPass());
        }
        Instant now = done.now();
        if (done.deferredDrops() > 0) {
            Instant wakeAt = earliest(now.plus(activeInterval), done);
            return Transition.to(new Active(wakeAt), new WaitForWakeOrTimer(wakeAt));
        }
        Instant wakeAt = earliest(now.plus(idleInterval), done);
        return Transition.to(new Idle(wakeAt), new WaitForWakeOrTimer(wakeAt));
    }

    private static Instant earliest(Instant candidate, PassFinished done) {
        // A due time not after now was the pass's own work; waiting for it again would spin.
        return done.nextDue()
                .filter(due -> due.isAfter(done.now()) && due.isBefore(candidate))
                .orElse(candidate);
    }
}

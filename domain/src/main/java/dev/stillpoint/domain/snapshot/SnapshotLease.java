package dev.stillpoint.domain.snapshot;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.LeaseState.Released;
import dev.stillpoint.domain.snapshot.LeaseState.ReleaseReason;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshot lease as a pure transition function [D6]. Entering {@link Released} is the only
 * place a permit is returned, so it is returned exactly once; every release wakes the poller.
 * A streaming lease idle past its limit is released EXPIRED like any other release [L1]; the
 * decision that it is idle is {@link IdleLimit}'s.
 */
public final class SnapshotLease {

    private SnapshotLease() {
    }

    /**
     * The initial state of every lease.
     *
     * @return the requested state
     */
    public static LeaseState requested() {
        return new LeaseState.Requested();
    }

    /**
     * The answer of the lease to {@code event} in {@code state}.
     *
     * @param state the lease's current state
     * @param event what happened to the lease
     * @return the next state and its effects, or a refusal leaving {@code state} as it was
     */
    public static Transition<LeaseState, LeaseEffect, LeaseRefusal> apply(LeaseState state, LeaseEvent event) {
        return switch (state.kind()) {
            case REQUESTED -> switch (event) {
                case PERMIT_GRANTED -> Transition.to(new LeaseState.Permitted());
                case PERMIT_REFUSED, FAILED -> release(state, ReleaseReason.OPEN_FAILED, event);
                case CLOSED, ABANDONED -> release(state, ReleaseReason.OPEN_CANCELLED, event);
                case ITEM_FETCHED -> Transition.refuse(LeaseRefusal.ITEM_BEFORE_STREAM, "no stream yet");
                // The idle clock runs only while streaming: an open in progress is never idle.
                case DEFINITION_READ, SNAPSHOT_PINNED, STREAM_STARTED, END_SEEN, IDLE_EXPIRED -> outOfOrder(state, event);
            };
            case PERMITTED -> opening(state, event, LeaseEvent.DEFINITION_READ, new LeaseState.Defined());
            case DEFINED -> opening(state, event, LeaseEvent.SNAPSHOT_PINNED, new LeaseState.Pinned());
            case PINNED -> opening(state, event, LeaseEvent.STREAM_STARTED, new LeaseState.Streaming());
            case STREAMING -> switch (event) {
                case ITEM_FETCHED -> Transition.to(state, LeaseEffect.DELIVER_ITEM);
                case END_SEEN -> release(state, ReleaseReason.DRAINED, event);
                case FAILED -> release(state, ReleaseReason.FAILED, event);
                case CLOSED, ABANDONED -> release(state, ReleaseReason.CLOSED_EARLY, event);
                case IDLE_EXPIRED -> release(state, ReleaseReason.EXPIRED, event);
                case PERMIT_GRANTED, PERMIT_REFUSED, DEFINITION_READ, SNAPSHOT_PINNED, STREAM_STARTED ->
                        outOfOrder(state, event);
            };
            case RELEASED -> switch (event) {
                case ITEM_FETCHED -> Transition.refuse(LeaseRefusal.ITEM_AFTER_RELEASE, "lease is " + state);
                // A close after the end, a second close, a late reclaim or a late idle timer:
                // already done, do nothing again.
                case END_SEEN, FAILED, CLOSED, ABANDONED, IDLE_EXPIRED -> Transition.to(state);
                case PERMIT_GRANTED, PERMIT_REFUSED, DEFINITION_READ, SNAPSHOT_PINNED, STREAM_STARTED ->
                        outOfOrder(state, event);
            };
        };
    }

    /**
     * Whether a lease in this state holds a permit.
     *
     * @param state a lease state
     * @return true from permitted until released
     */
    public static boolean holdsPermit(LeaseState state) {
        return switch (state.kind()) {
            case PERMITTED, DEFINED, PINNED, STREAMING -> true;
            case REQUESTED, RELEASED -> false;
        };
    }

    private static Transition<LeaseState, LeaseEffect, LeaseRefusal> opening(
            LeaseState state, LeaseEvent event, LeaseEvent step, LeaseState after) {
        if (event == step) {
            return Transition.to(after);
        }
        return switch (event) {
            case FAILED, PERMIT_REFUSED -> release(state, ReleaseReason.OPEN_FAILED, event);
            case CLOSED, ABANDONED -> release(state, ReleaseReason.OPEN_CANCELLED, event);
            case ITEM_FETCHED -> Transition.refuse(LeaseRefusal.ITEM_BEFORE_STREAM, "lease is " + state);
            // The idle clock starts when the stream is handed out; an open in progress is never idle.
            case PERMIT_GRANTED, DEFINITION_READ, SNAPSHOT_PINNED, STREAM_STARTED, END_SEEN, IDLE_EXPIRED ->
                    outOfOrder(state, event);
        };
    }

    private static Transition<LeaseState, LeaseEffect, LeaseRefusal> release(
            LeaseState from, ReleaseReason reason, LeaseEvent cause) {
        List<LeaseEffect> effects = new ArrayList<>(4);
        if (from.kind() != LeaseState.Kind.REQUESTED) {
            effects.add(LeaseEffect.END_TRANSACTION);
        }
        if (holdsPermit(from)) {
            effects.add(LeaseEffect.RETURN_PERMIT);
        }
        effects.add(LeaseEffect.WAKE_POLLER);
        if (cause == LeaseEvent.ABANDONED) {
            effects.add(LeaseEffect.LOG_ABANDONED);
        }
        if (cause == LeaseEvent.IDLE_EXPIRED) {
            effects.add(LeaseEffect.LOG_EXPIRED);
        }
        return Transition.to(new Released(reason, cause.name()), effects);
    }

    private static Transition<LeaseState, LeaseEffect, LeaseRefusal> outOfOrder(LeaseState state, LeaseEvent event) {
        return Transition.refuse(LeaseRefusal.OUT_OF_ORDER, event + " in " + state);
    }
}

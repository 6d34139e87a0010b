package dev.stillpoint.properties.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.domain.snapshot.LeaseEffect;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.snapshot.LeaseRefusal;
import dev.stillpoint.domain.snapshot.LeaseState;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.snapshot.SnapshotLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The lease machine and the permit pool together [D6, D7], over generated interleavings of
 * open steps, reads, failures, closes and reclaims across many leases sharing one pool.
 */
class SnapshotLeaseProperties {

    /** One action: an event for lease {@code lease}; an open is a permit request to the pool. */
    record Action(int lease, LeaseEvent event) {
    }

    /** What the pure model observed over one run. */
    static final class Ledger {
        final LeaseState[] states;
        final int[] permitsReturned;
        final int[] wakes;
        final boolean[] granted;
        PermitPool pool;
        final List<String> violations = new ArrayList<>();

        Ledger(int leases, int capacity) {
            states = new LeaseState[leases];
            permitsReturned = new int[leases];
            wakes = new int[leases];
            granted = new boolean[leases];
            for (int i = 0; i < leases; i++) {
                states[i] = SnapshotLease.requested();
            }
            pool = PermitPool.withCapacity(capacity);
        }

        void perform(Action action) {
            int i = action.lease();
            LeaseEvent event = action.event();
            if (event == LeaseEvent.PERMIT_GRANTED) {
                if (states[i].kind() != LeaseState.Kind.REQUESTED) {
                    return;
                }
                // The open asks the pool; over the bound it is refused at once, never queued [D7].
                Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> ask = pool.apply(PermitPool.Event.ACQUIRE, HolderKind.TABLE_SNAPSHOT);
                if (ask instanceof Transition.Refused<PermitPool, PermitPool.Effect, PermitPool.Refusal> r) {
                    assertThat(pool.inUse()).isEqualTo(pool.capacity());
                    assertThat(r.refusal()).isEqualTo(PermitPool.Refusal.EXHAUSTED);
                    event = LeaseEvent.PERMIT_REFUSED;
                } else {
                    pool = ask.nextOr(pool);
                    granted[i] = true;
                }
            }
            LeaseState before = states[i];
            Transition<LeaseState, LeaseEffect, LeaseRefusal> t = SnapshotLease.apply(before, event);
            states[i] = t.nextOr(before);
            for (LeaseEffect effect : t.effects()) {
                switch (effect) {
                    case RETURN_PERMIT -> {
                        permitsReturned[i]++;
                        pool = pool.apply(PermitPool.Event.RELEASE, HolderKind.TABLE_SNAPSHOT).nextOr(pool);
                    }
                    case WAKE_POLLER -> wakes[i]++;
                    case DELIVER_ITEM -> {
                        if (before.kind() == LeaseState.Kind.RELEASED) {
                            violations.add("item delivered after release by lease " + i);
                        }
                    }
                    case END_TRANSACTION, LOG_ABANDONED, LOG_EXPIRED -> { }
                }
            }
            if (before.kind() == LeaseState.Kind.RELEASED) {
                assertThat(t.effects()).as("a released lease does nothing again").isEmpty();
            }
        }
    }

    // D6, D7: permits never exceed the bound; each granted permit is returned exactly once, on
    // release; every release wakes the poller once; no item is delivered after release.
    @Property
    void d6_d7_permitsBoundedAndReturnedExactlyOnce(@ForAll @IntRange(min = 1, max = 4) int capacity,
                                                     @ForAll("actions") List<Action> actions) {
        Ledger ledger = new Ledger(LEASES, capacity);
        for (Action action : actions) {
            ledger.perform(action);
            assertThat(ledger.pool.inUse()).isLessThanOrEqualTo(capacity);
            long holding = 0;
            for (LeaseState s : ledger.states) {
                holding += SnapshotLease.holdsPermit(s) ? 1 : 0;
            }
            assertThat(ledger.pool.inUse()).isEqualTo(holding);
        }
        for (int i = 0; i < LEASES; i++) {
            boolean released = ledger.states[i].kind() == LeaseState.Kind.RELEASED;
            assertThat(ledger.permitsReturned[i]).isEqualTo(released && ledger.granted[i] ? 1 : 0);
            assertThat(ledger.wakes[i]).isEqualTo(released ? 1 : 0);
        }
        assertThat(ledger.violations).isEmpty();
    }

    // D6: the first error releases; reasons follow the phase (open failed before the stream, failed after).
    @Property
    void d6_firstErrorReleasesWithThePhasesReason(@ForAll("openPrefixes") List<LeaseEvent> prefix) {
        LeaseState state = SnapshotLease.requested();
        for (LeaseEvent e : prefix) {
            state = SnapshotLease.apply(state, e).nextOr(state);
        }
        LeaseState after = SnapshotLease.apply(state, LeaseEvent.FAILED).nextOr(state);
        assertThat(after).isInstanceOf(LeaseState.Released.class);
        LeaseState.ReleaseReason expected = state.kind() == LeaseState.Kind.STREAMING
                ? LeaseState.ReleaseReason.FAILED : LeaseState.ReleaseReason.OPEN_FAILED;
        assertThat(((LeaseState.Released) after).reason()).isEqualTo(expected);
        assertThat(SnapshotLease.apply(after, LeaseEvent.ITEM_FETCHED)).isInstanceOf(Transition.Refused.class);
    }

    // D6: every (state, event) pair has an answer; a refusal changes nothing.
    @Property
    void d6_everyStateEventPairHasAnAnswer(@ForAll("openPrefixes") List<LeaseEvent> prefix, @ForAll LeaseEvent event) {
        LeaseState state = SnapshotLease.requested();
        for (LeaseEvent e : prefix) {
            state = SnapshotLease.apply(state, e).nextOr(state);
        }
        Transition<LeaseState, LeaseEffect, LeaseRefusal> t = SnapshotLease.apply(state, event);
        assertThat(t).isNotNull();
        if (t instanceof Transition.Refused) {
            assertThat(t.effects()).isEmpty();
        }
    }

    // [D6, S5, P8] a release ends the read transaction when one may have begun (any state after
    // requested), returns the permit exactly when the lease holds one, always wakes the poller, and logs
    // only a reclaimed (abandoned) stream, in that order; a close or an error releases from any state.
    @Property
    void d6_releaseEffectsFollowWhatTheLeaseHeld(@ForAll("openPrefixes") List<LeaseEvent> prefix,
                                                 @ForAll("releasingEvents") LeaseEvent event) {
        LeaseState state = SnapshotLease.requested();
        for (LeaseEvent e : prefix) {
            state = SnapshotLease.apply(state, e).nextOr(state);
        }
        LeaseState.Kind kind = state.kind();
        Transition<LeaseState, LeaseEffect, LeaseRefusal> t = SnapshotLease.apply(state, event);
        boolean streaming = kind == LeaseState.Kind.STREAMING;
        boolean releases = switch (event) {
            case FAILED, CLOSED, ABANDONED -> true;
            case END_SEEN, IDLE_EXPIRED -> streaming;
            case PERMIT_REFUSED -> !streaming;
            default -> false;
        };
        if (!releases) {
            assertThat(t).isInstanceOf(Transition.Refused.class);
            return;
        }
        List<LeaseEffect> expected = new ArrayList<>();
        if (kind != LeaseState.Kind.REQUESTED) {
            expected.add(LeaseEffect.END_TRANSACTION);
        }
        if (kind == LeaseState.Kind.PERMITTED || kind == LeaseState.Kind.DEFINED || kind == LeaseState.Kind.PINNED
                || streaming) {
            expected.add(LeaseEffect.RETURN_PERMIT);
        }
        expected.add(LeaseEffect.WAKE_POLLER);
        if (event == LeaseEvent.ABANDONED) {
            expected.add(LeaseEffect.LOG_ABANDONED);
        }
        if (event == LeaseEvent.IDLE_EXPIRED) {
            expected.add(LeaseEffect.LOG_EXPIRED);
        }
        assertThat(t.effects()).containsExactlyElementsOf(expected);
        LeaseState.ReleaseReason reason = switch (event) {
            case END_SEEN -> LeaseState.ReleaseReason.DRAINED;
            case IDLE_EXPIRED -> LeaseState.ReleaseReason.EXPIRED;
            case FAILED, PERMIT_REFUSED -> streaming ? LeaseState.ReleaseReason.FAILED : LeaseState.ReleaseReason.OPEN_FAILED;
            default -> streaming ? LeaseState.ReleaseReason.CLOSED_EARLY : LeaseState.ReleaseReason.OPEN_CANCELLED;
        };
        assertThat(t.nextOr(null)).isEqualTo(new LeaseState.Released(reason, event.name()));
    }

    // [L1] the idle timer's decision: a fetch in flight is never idle; otherwise expire exactly when
    // the idle time reached the limit, else look again after what is left of it.
    @Property
    void l1_idleCheckExpiresExactlyAtTheLimit(@ForAll @IntRange(min = 100, max = 120_000) int limitMillis,
                                              @ForAll @IntRange(min = -5, max = 240_000) int idleMillis,
                                              @ForAll boolean fetchInFlight) {
        IdleLimit limit = new IdleLimit(Duration.ofMillis(limitMillis));
        IdleLimit.Check check = limit.check(Duration.ofMillis(idleMillis).toNanos(), fetchInFlight);
        if (fetchInFlight) {
            assertThat(check).isEqualTo(new IdleLimit.Check.LookAgain(Duration.ofMillis(limitMillis)));
        } else if (idleMillis >= limitMillis) {
            assertThat(check).isEqualTo(new IdleLimit.Check.Expire());
        } else {
            assertThat(check).isEqualTo(new IdleLimit.Check.LookAgain(Duration.ofMillis(limitMillis - Math.max(0, idleMillis))));
        }
    }

    // [L1] the boundaries the random property rarely lands on: idle for exactly the limit expires, one
    // nanosecond less looks again after that nanosecond; the limit reads in ms below a second, in s from one.
    @Example
    void l1_idleCheckAndTextAtTheirExactBoundaries() {
        for (Duration d : List.of(IdleLimit.MIN, Duration.ofMillis(999), Duration.ofSeconds(1), Duration.ofMillis(1001), IdleLimit.MAX)) {
            IdleLimit limit = new IdleLimit(d);
            assertThat(limit.check(d.toNanos(), false)).as("[L1] idle for exactly %s", d).isEqualTo(new IdleLimit.Check.Expire());
            assertThat(limit.check(d.toNanos() - 1, false)).as("[L1] idle 1 ns short of %s", d)
                    .isEqualTo(new IdleLimit.Check.LookAgain(Duration.ofNanos(1)));
        }
        assertThat(new IdleLimit(Duration.ofMillis(999)).text()).isEqualTo("999 ms");
        assertThat(new IdleLimit(Duration.ofMillis(1000)).text()).isEqualTo("1 s");
        assertThat(new IdleLimit(Duration.ofMillis(1001)).text()).isEqualTo("1.001 s");
        assertThat(new IdleLimit(Duration.ofMillis(1010)).text()).isEqualTo("1.01 s");
    }

    // [L1] a limit outside 100 ms .. 1 day is a validation error naming the value and the setting;
    // the expiry message names the limit.
    @Property
    void l1_idleLimitOutOfRangeIsRefusedNamingTheValue(@ForAll @IntRange(min = -1000, max = 99) int millis) {
        assertThatThrownBy(() -> new IdleLimit(Duration.ofMillis(millis)))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).contains("snapshotIdleLimit").contains(millis + " ms");
                });
    }

    @Example
    void l1_idleLimitBoundsAndMessage() {
        assertThat(IdleLimit.DEFAULT.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThatThrownBy(() -> new IdleLimit(Duration.ofDays(1).plusMillis(1)))
                .hasMessageContaining("86400.001 s");
        assertThatThrownBy(() -> new IdleLimit(null)).isInstanceOf(StorageException.class);
        assertThat(new IdleLimit(Duration.ofMillis(2500)).expiredMessage("t1"))
                .contains("table 't1'").contains("2.5 s").contains("snapshotIdleLimit");
        assertThat(new IdleLimit(Duration.ofSeconds(2)).text()).isEqualTo("2 s");
    }

    @Provide
    Arbitrary<LeaseEvent> releasingEvents() {
        return Arbitraries.of(LeaseEvent.FAILED, LeaseEvent.CLOSED, LeaseEvent.ABANDONED, LeaseEvent.END_SEEN,
                LeaseEvent.PERMIT_REFUSED, LeaseEvent.IDLE_EXPIRED);
    }

    private static final int LEASES = 6;

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<LeaseEvent> events = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just(LeaseEvent.PERMIT_GRANTED)),
                net.jqwik.api.Tuple.of(3, Arbitraries.of(LeaseEvent.DEFINITION_READ, LeaseEvent.SNAPSHOT_PINNED, LeaseEvent.STREAM_STARTED)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(LeaseEvent.ITEM_FETCHED)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(LeaseEvent.END_SEEN, LeaseEvent.FAILED, LeaseEvent.CLOSED, LeaseEvent.ABANDONED,
                        LeaseEvent.IDLE_EXPIRED)));
        return Combinators.combine(Arbitraries.integers().between(0, LEASES - 1), events).as(Action::new)
                .list().ofMaxSize(80);
    }

    @Provide
    Arbitrary<List<LeaseEvent>> openPrefixes() {
        List<LeaseEvent> path = List.of(LeaseEvent.PERMIT_GRANTED, LeaseEvent.DEFINITION_READ,
                LeaseEvent.SNAPSHOT_PINNED, LeaseEvent.STREAM_STARTED, LeaseEvent.ITEM_FETCHED);
        return Arbitraries.integers().between(0, path.size()).map(n -> path.subList(0, n));
    }
}

package dev.stillpoint.properties.poller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.poller.PollerEffect;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.poller.PollerRefusal;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.poller.PollerState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The poller's schedule [D8], over generated runs of wakes, timers and pass results. */
class PollerScheduleProperties {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final PollerSchedule SCHEDULE = PollerSchedule.DEFAULT;

    /** Runs the schedule the way its thread does: after each pass or wait, the generated next event. */
    static PollerState runTo(List<PollerEvent> events) {
        PollerState state = SCHEDULE.apply(PollerSchedule.starting(), new PollerEvent.Started(T0)).nextOr(null);
        for (PollerEvent e : events) {
            state = SCHEDULE.apply(state, e).nextOr(state);
        }
        return state;
    }

    // D8: after any pass that deferred a drop the poller is active: its next pass is at most a second away.
    @Property
    void d8_activeWhileAnyDropIsDeferred(@ForAll("runs") List<PollerEvent> prefix, @ForAll("passes") PollerEvent.PassFinished done) {
        PollerState state = runTo(prefix);
        if (state.kind() != PollerState.Kind.RUNNING) {
            return;
        }
        Transition<PollerState, PollerEffect, PollerRefusal> t = SCHEDULE.apply(state, done);
        if (done.deferredDrops() > 0) {
            assertThat(t.nextOr(null)).isInstanceOfSatisfying(PollerState.Active.class,
                    a -> assertThat(a.wakeAt()).isBeforeOrEqualTo(done.now().plus(Duration.ofSeconds(1))));
        } else {
            // D8: a pass without deferred drops (a non-lock failure included) does not stay active.
            assertThat(t.nextOr(null)).isInstanceOf(PollerState.Idle.class);
        }
        assertThat(t.effects()).singleElement().isInstanceOfSatisfying(PollerEffect.WaitForWakeOrTimer.class,
                w -> assertThat(w.until()).isAfter(done.now()));
    }

    // D8, P8: a wake while waiting (idle or active) runs a pass at once.
    @Property
    void d8_wakeRunsAPassAtOnce(@ForAll("runs") List<PollerEvent> prefix, @ForAll("instants") Instant now) {
        PollerState state = runTo(prefix);
        Transition<PollerState, PollerEffect, PollerRefusal> t = SCHEDULE.apply(state, new PollerEvent.Woken(now));
        switch (state.kind()) {
            case IDLE, ACTIVE -> assertThat(t.effects()).containsExactly(new PollerEffect.RunPass());
            case RUNNING, RUNNING_WOKEN -> {
                // A wake during a pass is kept: the pass's end starts another pass at once.
                PollerState woken = t.nextOr(state);
                assertThat(woken.kind()).isEqualTo(PollerState.Kind.RUNNING_WOKEN);
                Transition<PollerState, PollerEffect, PollerRefusal> end =
                        SCHEDULE.apply(woken, new PollerEvent.PassFinished(now, 0, Optional.empty()));
                assertThat(end.effects()).containsExactly(new PollerEffect.RunPass());
            }
            case STARTING, STOPPED -> { }
        }
    }

    // D8: startup runs a pass first, and a drop it deferred keeps the poller active after a restart.
    @Property
    void d8_startupWithDeferredDropGoesActive(@ForAll("instants") Instant now) {
        Transition<PollerState, PollerEffect, PollerRefusal> start = SCHEDULE.apply(PollerSchedule.starting(), new PollerEvent.Started(now));
        assertThat(start.effects()).containsExactly(new PollerEffect.RunPass());
        PollerState after = SCHEDULE.apply(start.nextOr(null), new PollerEvent.PassFinished(now, 1, Optional.empty())).nextOr(null);
        assertThat(after.kind()).isEqualTo(PollerState.Kind.ACTIVE);
    }

    // D8: a timer that fires before its deadline only resumes the same wait; at the deadline it runs a pass.
    @Property
    void d8_timerRunsAPassOnlyAtItsDeadline(@ForAll("runs") List<PollerEvent> prefix, @ForAll("instants") Instant now) {
        PollerState state = runTo(prefix);
        Instant wakeAt;
        if (state instanceof PollerState.Idle idle) {
            wakeAt = idle.wakeAt();
        } else if (state instanceof PollerState.Active active) {
            wakeAt = active.wakeAt();
        } else {
            return;
        }
        Transition<PollerState, PollerEffect, PollerRefusal> t = SCHEDULE.apply(state, new PollerEvent.TimerFired(now));
        if (now.isBefore(wakeAt)) {
            assertThat(t.effects()).containsExactly(new PollerEffect.WaitForWakeOrTimer(wakeAt));
        } else {
            assertThat(t.effects()).containsExactly(new PollerEffect.RunPass());
        }
    }

    // D8: a stop ends the loop from any state, and stopped is terminal.
    @Property
    void d8_stopIsTerminal(@ForAll("runs") List<PollerEvent> prefix, @ForAll("anyEvent") PollerEvent later) {
        PollerState stopped = SCHEDULE.apply(runTo(prefix), new PollerEvent.StopRequested()).nextOr(null);
        assertThat(stopped.kind()).isEqualTo(PollerState.Kind.STOPPED);
        assertThat(SCHEDULE.apply(stopped, later).nextOr(stopped).kind()).isEqualTo(PollerState.Kind.STOPPED);
    }

    @Provide
    Arbitrary<Instant> instants() {
        return Arbitraries.longs().between(0, 200_000).map(T0::plusMillis);
    }

    @Provide
    Arbitrary<PollerEvent.PassFinished> passes() {
        return Combinators.combine(instants(), Arbitraries.integers().between(0, 3),
                        instants().optional())
                .as(PollerEvent.PassFinished::new);
    }

    @Provide
    Arbitrary<PollerEvent> anyEvent() {
        return Arbitraries.<PollerEvent>oneOf(passes().map(p -> p), instants().map(PollerEvent.Woken::new),
                instants().map(PollerEvent.TimerFired::new), instants().map(PollerEvent.Started::new));
    }

    @Provide
    Arbitrary<List<PollerEvent>> runs() {
        return Arbitraries.<PollerEvent>oneOf(passes().map(p -> p), instants().map(PollerEvent.Woken::new),
                instants().map(PollerEvent.TimerFired::new)).list().ofMaxSize(12);
    }
}

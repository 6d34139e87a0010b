package dev.stillpoint.core.lifecycle;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.poller.PollerEffect;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.poller.PollerRefusal;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane poller as a real thread driven by {@link PollerSchedule} [D8, P8]. It runs
 * startup recovery first, then waits on its wake OR its timer, whichever comes first: a wake
 * during a pass makes another pass follow at once.
 */
public final class ControlPlanePoller implements WakeSignal, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlPlanePoller.class);

    private final PollerSchedule schedule;
    private final Supplier<PollerEvent.PassFinished> pass;
    private final TimeSource time;
    private final Object signal = new Object();
    private final AtomicLong passes = new AtomicLong();
    private final Thread thread;
    private final StorageEvents events;
    // Counts wakes not yet seen by the loop; a wake is never lost between a check and a wait.
    private long wakes;
    private long wakesSeen;
    private volatile boolean stopRequested;
    // Counted down when the first pass (startup recovery) has finished, or when the loop ends without one.
    private final CountDownLatch firstPass = new CountDownLatch(1);
    private PollerState state = PollerSchedule.starting();

    /**
     * A poller running {@code pass} on {@code schedule} in a daemon thread, not yet started.
     *
     * @param schedule the idle and active cadence [D8]
     * @param pass runs one pass and reports it
     * @param time the clock for wake times
     * @param name the thread's name
     */
    public ControlPlanePoller(PollerSchedule schedule, Supplier<PollerEvent.PassFinished> pass, TimeSource time, String name) {
        this(schedule, pass, time, name, StorageEvents.NONE);
    }

    /**
     * A poller running {@code pass} on {@code schedule} in a daemon thread, not yet started, telling
     * {@code events} of every pass's end [X1].
     *
     * @param schedule the idle and active cadence [D8]
     * @param pass runs one pass and reports it
     * @param time the clock for wake times
     * @param name the thread's name
     * @param events told how long each pass ran and whether it failed
     */
    public ControlPlanePoller(PollerSchedule schedule, Supplier<PollerEvent.PassFinished> pass, TimeSource time, String name,
                              StorageEvents events) {
        this.events = java.util.Objects.requireNonNull(events, "events");
        this.schedule = schedule;
        this.pass = pass;
        this.time = time;
        this.thread = new Thread(this::loop, name);
        this.thread.setDaemon(true);
    }

    /**
     * Starts the thread; its first act is the startup-recovery pass.
     *
     * @return this poller
     */
    public ControlPlanePoller start() {
        thread.start();
        return this;
    }

    /**
     * Waits until the startup-recovery pass has finished (or the poller stopped without one), at most
     * {@code timeout}: a short-lived opening (a CLI command) that waits here acts on what recovery left, a
     * dead restore removed or a deferred drop finished [E5, D8], instead of racing it. A poller never
     * started has no pass to wait for.
     *
     * @param timeout the longest wait
     * @return whether the first pass finished (or none will run) within the timeout
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitFirstPass(Duration timeout) throws InterruptedException {
        // A thread never started (NEW) runs no pass.
        return thread.getState() == Thread.State.NEW || firstPass.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void wake() {
        synchronized (signal) {
            wakes++;
            signal.notifyAll();
        }
    }

    /**
     * Passes run so far (for tests and diagnostics).
     *
     * @return the number of passes finished
     */
    public long passesRun() {
        return passes.get();
    }

    /**
     * The schedule's state, for diagnostics.
     *
     * @return the poller's current state
     */
    public synchronized PollerState state() {
        return state;
    }

    @Override
    public void close() {
        stopRequested = true;
        wake();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        try {
            PollerEvent event = new PollerEvent.Started(time.now());
            // Every effect that is not Exit yields the next event; a refusal (a bug) ends the loop, logged.
            while (event != null) {
                PollerEvent next = null;
                for (PollerEffect effect : step(event).effects()) {
                    next = perform(effect);
                }
                event = next;
            }
        } finally {
            firstPass.countDown();
        }
    }

    private synchronized Transition<PollerState, PollerEffect, PollerRefusal> step(PollerEvent event) {
        Transition<PollerState, PollerEffect, PollerRefusal> t = schedule.apply(state, event);
        if (t instanceof Transition.Refused<PollerState, PollerEffect, PollerRefusal> refused) {
            LOG.error("poller refused {} in {}: {}", event, state, refused.refusal());
        }
        state = t.nextOr(state);
        return t;
    }

    private PollerEvent perform(PollerEffect effect) {
        if (effect instanceof PollerEffect.RunPass) {
            return runPass();
        }
        if (effect instanceof PollerEffect.WaitForWakeOrTimer w) {
            return waitForWakeOrTimer(w.until());
        }
        return null;
    }

    private PollerEvent runPass() {
        if (stopRequested) {
            return new PollerEvent.StopRequested();
        }
        synchronized (signal) {
            wakesSeen = wakes;
        }
        PollerEvent.PassFinished finished;
        long began = time.monotonicNanos();
        boolean failed = false;
        try {
            finished = pass.get();
        } catch (RuntimeException e) {
            LOG.warn("control-plane pass failed: {}", e.toString());
            failed = true;
            finished = new PollerEvent.PassFinished(time.now(), 0, java.util.Optional.empty());
        }
        passes.incrementAndGet();
        firstPass.countDown();
        events.passFinished(Duration.ofNanos(time.monotonicNanos() - began), failed);
        synchronized (signal) {
            if (wakes != wakesSeen) {
                // Woken while the pass ran: let the schedule know before it decides the next wait.
                step(new PollerEvent.Woken(time.now()));
            }
        }
        return finished;
    }

    private PollerEvent waitForWakeOrTimer(Instant until) {
        synchronized (signal) {
            while (!stopRequested && wakes == wakesSeen) {
                long millis = Duration.between(time.now(), until).toMillis();
                if (millis <= 0) {
                    return new PollerEvent.TimerFired(time.now());
                }
                try {
                    signal.wait(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new PollerEvent.StopRequested();
                }
            }
            if (stopRequested) {
                return new PollerEvent.StopRequested();
            }
            wakesSeen = wakes;
            return new PollerEvent.Woken(time.now());
        }
    }
}

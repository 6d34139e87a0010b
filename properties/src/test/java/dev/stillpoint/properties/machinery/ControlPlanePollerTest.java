package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.ControlPlanePoller;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The poller's thread [D8, P8], with latches and deadlines rather than sleeps. Its idle sweep is
 * set to an hour, so any pass that happens soon was caused by a wake, a startup or the active loop.
 */
class ControlPlanePollerTest {

    private static final Duration IDLE = Duration.ofHours(1);

    // D8, P8: a wake runs a pass at once, also while idle with an hour to go.
    @Test
    void d8_wakeRunsAPassAtOnce() throws Exception {
        Semaphore passes = new Semaphore(0);
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)),
                counting(passes, 0), TimeSource.SYSTEM, "test-poller").start()) {
            assertThat(passes.tryAcquire(10, TimeUnit.SECONDS)).as("startup pass").isTrue();
            awaitTrue(() -> poller.state().kind() == PollerState.Kind.IDLE, "poller idle");
            poller.wake();
            assertThat(passes.tryAcquire(10, TimeUnit.SECONDS)).as("pass after wake").isTrue();
        }
    }

    // E5, D8: an opening can wait for its startup recovery: the wait ends when the first pass has finished,
    // not before (a pass held in progress keeps it waiting to its timeout), and at once for a poller never
    // started or one stopped before its first pass.
    @Test
    void e5_theWaitForStartupRecoveryEndsWhenTheFirstPassHasFinished() throws Exception {
        CountDownLatch inPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Supplier<PollerEvent.PassFinished> held = () -> {
            inPass.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new PollerEvent.PassFinished(Instant.now(), 0, Optional.empty());
        };
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)), held,
                TimeSource.SYSTEM, "test-poller-recovery")) {
            assertThat(poller.awaitFirstPass(Duration.ZERO)).as("a poller never started has no pass to wait for").isTrue();
            poller.start();
            assertThat(inPass.await(10, TimeUnit.SECONDS)).as("the first pass began").isTrue();
            assertThat(poller.awaitFirstPass(Duration.ofMillis(50))).as("a pass in progress is not finished").isFalse();
            release.countDown();
            assertThat(poller.awaitFirstPass(Duration.ofSeconds(10))).as("the first pass finished").isTrue();
        }
        ControlPlanePoller stopped = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)),
                () -> new PollerEvent.PassFinished(Instant.now(), 0, Optional.empty()), TimeSource.SYSTEM,
                "test-poller-stopped");
        stopped.close();
        stopped.start();
        assertThat(stopped.awaitFirstPass(Duration.ofSeconds(10))).as("a poller stopped before its first pass")
                .isTrue();
        stopped.close();
    }

    // D8: startup recovery runs a pass; a drop it deferred keeps the poller active (passes keep coming
    // with no wake at all), and once nothing is deferred it goes idle.
    @Test
    void d8_startupWithDeferredDropStaysActiveUntilResolved() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.held = t -> true;
        catalog.rows.put("held", new TableRecord(Descriptions.active("acct", "held"),
                new TableState.Deleting(Instant.now(), TableState.DropRetry.DEFERRED)));
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, TimeSource.SYSTEM);
        Semaphore passes = new Semaphore(0);
        Supplier<PollerEvent.PassFinished> counted = () -> {
            PollerEvent.PassFinished done = pass.run();
            passes.release();
            return done;
        };
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofMillis(100)),
                counted, TimeSource.SYSTEM, "test-poller").start()) {
            assertThat(passes.tryAcquire(3, 10, TimeUnit.SECONDS)).as("three passes with no wake").isTrue();
            assertThat(catalog.rows).containsKey("held");
            catalog.held = t -> false;
            awaitTrue(() -> !catalog.rows.containsKey("held"), "held table dropped once free");
            awaitTrue(() -> poller.state().kind() == PollerState.Kind.IDLE, "idle once nothing is deferred");
        }
    }

    // D8: a drop that fails for a reason other than a lock wait does not keep the poller active.
    @Test
    void d8_nonLockFailureDoesNotKeepThePollerActive() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.dropAnswer = t -> new DropResult(DropOutcome.OTHER_FAILURE, "cannot drop: a view depends on it");
        catalog.rows.put("viewed", new TableRecord(Descriptions.active("acct", "viewed"),
                new TableState.Deleting(Instant.now(), TableState.DropRetry.DEFERRED)));
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, TimeSource.SYSTEM);
        CountDownLatch first = new CountDownLatch(1);
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofMillis(50)), () -> {
            PollerEvent.PassFinished done = pass.run();
            first.countDown();
            return done;
        }, TimeSource.SYSTEM, "test-poller").start()) {
            assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
            awaitTrue(() -> poller.state().kind() == PollerState.Kind.IDLE, "idle after a non-lock failure");
            assertThat(catalog.rows.get("viewed").state()).isInstanceOfSatisfying(TableState.Deleting.class,
                    d -> assertThat(d.retry()).isEqualTo(TableState.DropRetry.FAILED));
            long passesAtIdle = poller.passesRun();
            // With a 50 ms active loop, staying active would run many passes in this window.
            Instant until = Instant.now().plusMillis(500);
            awaitTrue(() -> Instant.now().isAfter(until), "observation window");
            assertThat(poller.passesRun()).isEqualTo(passesAtIdle);
        }
    }

    // D8: a pass that throws (here the catalog read failing outright, as a lost connection would) is
    // logged and followed by later passes: a drop deferred before it is still retried and done.
    // Mutant run by hand: ControlPlanePoller.runPass giving up its loop when the pass throws (the
    // catch returning null instead of an empty PassFinished) -> fails on "[D8] a pass that throws is
    // followed by later passes: the deferred drop is retried once the table is free".
    @Test
    void d8_aPassThatThrowsIsFollowedByLaterPasses() throws Exception {
        FakeCatalog catalog = new FakeCatalog();
        catalog.held = t -> true;
        catalog.rows.put("held", new TableRecord(Descriptions.active("acct", "held"),
                new TableState.Deleting(Instant.now(), TableState.DropRetry.DEFERRED)));
        TableDeletion deletion = new TableDeletion(catalog, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, TimeSource.SYSTEM);
        CountDownLatch deferredOnce = new CountDownLatch(1);
        CountDownLatch threw = new CountDownLatch(1);
        CountDownLatch dropped = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Supplier<PollerEvent.PassFinished> passThatThrowsOnce = () -> {
            int n = calls.incrementAndGet();
            if (n == 2) {
                // The second pass (the first is startup recovery, which deferred) fails outright.
                threw.countDown();
                throw new IllegalStateException("the catalog is unreachable");
            }
            PollerEvent.PassFinished done = pass.run();
            if (done.deferredDrops() > 0) {
                deferredOnce.countDown();
            }
            if (!catalog.rows.containsKey("held")) {
                dropped.countDown();
            }
            return done;
        };
        // The idle sweep is 200 ms here, so after the failed pass the next one comes from it (or
        // from the wake below) within the bound; the table is freed only after the failure.
        try (ControlPlanePoller poller = new ControlPlanePoller(
                new PollerSchedule(Duration.ofMillis(200), Duration.ofMillis(50)),
                passThatThrowsOnce, TimeSource.SYSTEM, "test-poller").start()) {
            assertThat(deferredOnce.await(10, TimeUnit.SECONDS)).as("[D8] startup recovery deferred the held drop").isTrue();
            assertThat(threw.await(10, TimeUnit.SECONDS)).as("[D8] the next pass ran and threw").isTrue();
            catalog.held = t -> false;
            poller.wake();
            assertThat(dropped.await(10, TimeUnit.SECONDS))
                    .as("[D8] a pass that throws is followed by later passes: the deferred drop is retried "
                            + "once the table is free")
                    .isTrue();
            assertThat(calls.get()).as("[D8] passes after the one that threw").isGreaterThanOrEqualTo(3);
        }
    }

    // D8: the poller's thread is a daemon whoever builds it, so it never keeps a server's JVM alive. A
    // thread inherits its builder's daemon flag, hence the build from a non-daemon thread (PIT's
    // runner and JUnit's may be daemons; the setDaemon mutant survived the older check for that).
    @Test
    void d8_thePollerThreadIsADaemonWhenBuiltByANonDaemonThread() throws Exception {
        ControlPlanePoller[] built = new ControlPlanePoller[1];
        Thread builder = new Thread(() -> built[0] = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)),
                counting(new Semaphore(0), 0), TimeSource.SYSTEM, "test-poller-daemon-" + System.nanoTime()));
        builder.setDaemon(false);
        builder.start();
        builder.join(TimeUnit.SECONDS.toMillis(10));
        try (ControlPlanePoller poller = built[0].start()) {
            awaitTrue(() -> poller.passesRun() >= 1, "startup pass");
            Thread thread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("test-poller-daemon-")).findFirst().orElseThrow();
            assertThat(thread.isDaemon()).as("[D8] the poller thread is a daemon although its builder was not").isTrue();
        }
    }

    // D8: close() called from an interrupted thread still stops the poller and keeps the caller's
    // interrupt (a server shutting down on an interrupt must see it after close returns).
    @Test
    void d8_closeFromAnInterruptedThreadKeepsTheInterruptAndStopsThePoller() throws Exception {
        ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)),
                counting(new Semaphore(0), 0), TimeSource.SYSTEM, "test-poller-interrupted-close").start();
        awaitTrue(() -> poller.passesRun() >= 1, "startup pass");
        Thread.currentThread().interrupt();
        poller.close();
        assertThat(Thread.interrupted()).as("[D8] the caller's interrupt survives close").isTrue();
        awaitTrue(() -> poller.state().kind() == PollerState.Kind.STOPPED, "poller stopped after close");
    }

    // D8: a close that lands while a pass runs stops the poller once that pass ends: the pass's end
    // sees the wake close sent, the schedule asks for another pass at once, and that pass, finding the
    // stop requested, stops the poller instead of running (STOPPED, no further pass).
    @Test
    void d8_aCloseDuringAPassStopsThePollerWhenThePassEnds() throws Exception {
        CountDownLatch secondPassRunning = new CountDownLatch(1);
        CountDownLatch releaseSecondPass = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)), () -> {
            if (calls.incrementAndGet() == 2) {
                secondPassRunning.countDown();
                await(releaseSecondPass);
            }
            return new PollerEvent.PassFinished(Instant.now(), 0, Optional.empty());
        }, TimeSource.SYSTEM, "test-poller-close-in-pass").start();
        awaitTrue(() -> poller.state().kind() == PollerState.Kind.IDLE, "idle after the startup pass");
        poller.wake();
        assertThat(secondPassRunning.await(10, TimeUnit.SECONDS)).as("the woken pass runs").isTrue();
        Thread closer = new Thread(poller::close, "test-poller-closer");
        closer.start();
        // close() sets the stop and wakes before it joins: wait until it is joining the poller thread.
        awaitTrue(() -> closer.getState() == Thread.State.TIMED_WAITING, "close joining the poller");
        releaseSecondPass.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closer.isAlive()).as("close returned").isFalse();
        assertThat(poller.state().kind()).as("[D8] a close during a pass stops the poller when the pass ends")
                .isEqualTo(PollerState.Kind.STOPPED);
        assertThat(calls.get()).as("[D8] no pass after the close").isEqualTo(2);
    }

    // D8: an interrupt of the poller's thread while it waits stops it (STOPPED, no more passes), as a
    // server's executor shutting its threads down would.
    @Test
    void d8_anInterruptWhileWaitingStopsThePoller() throws Exception {
        String name = "test-poller-interrupted-" + System.nanoTime();
        Semaphore passes = new Semaphore(0);
        try (ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)),
                counting(passes, 0), TimeSource.SYSTEM, name).start()) {
            awaitTrue(() -> poller.state().kind() == PollerState.Kind.IDLE, "idle after the startup pass");
            Thread thread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals(name)).findFirst().orElseThrow();
            awaitTrue(() -> thread.getState() == Thread.State.TIMED_WAITING, "the poller waiting for its timer");
            thread.interrupt();
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(thread.isAlive()).as("[D8] the interrupted poller thread ends").isFalse();
            assertThat(poller.state().kind()).as("[D8] an interrupt while waiting stops the poller")
                    .isEqualTo(PollerState.Kind.STOPPED);
            assertThat(passes.availablePermits()).as("[D8] only the startup pass ran").isEqualTo(1);
        }
    }

    // D8: close() from an interrupted thread while a pass still runs returns at once without waiting for
    // the pass, keeps the caller's interrupt, and the poller stops when the pass ends. (The pass holds
    // the poller thread alive, so the join in close meets the interrupt; the test above may find the
    // thread already ended.)
    @Test
    void d8_closeFromAnInterruptedThreadDuringAPassKeepsTheInterrupt() throws Exception {
        CountDownLatch passRunning = new CountDownLatch(1);
        CountDownLatch releasePass = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        ControlPlanePoller poller = new ControlPlanePoller(new PollerSchedule(IDLE, Duration.ofSeconds(1)), () -> {
            if (calls.incrementAndGet() == 1) {
                passRunning.countDown();
                await(releasePass);
            }
            return new PollerEvent.PassFinished(Instant.now(), 0, Optional.empty());
        }, TimeSource.SYSTEM, "test-poller-interrupted-close-in-pass").start();
        assertThat(passRunning.await(10, TimeUnit.SECONDS)).as("the startup pass runs").isTrue();
        boolean kept;
        try {
            Thread.currentThread().interrupt();
            poller.close();
        } finally {
            kept = Thread.interrupted();
            releasePass.countDown();
        }
        assertThat(kept).as("[D8] the caller's interrupt survives a close that could not wait").isTrue();
        awaitTrue(() -> poller.state().kind() == PollerState.Kind.STOPPED, "poller stopped once the pass ended");
        assertThat(calls.get()).as("[D8] no pass after the close").isEqualTo(1);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).as("released within 10 s").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Supplier<PollerEvent.PassFinished> counting(Semaphore passes, int deferred) {
        return () -> {
            passes.release();
            return new PollerEvent.PassFinished(Instant.now(), deferred, Optional.empty());
        };
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Object tick = new Object();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("deadline for: " + what).isLessThan(deadline);
            synchronized (tick) {
                tick.wait(10);
            }
        }
    }
}

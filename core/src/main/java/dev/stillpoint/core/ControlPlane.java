package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.poller.PollerState;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.ControlPlanePoller;
import dev.stillpoint.core.lifecycle.StatisticsRefresh;
import dev.stillpoint.core.lifecycle.TableCreation;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one composition point of a backend with a control plane (SQLite, PostgreSQL, MongoDB): it owns
 * the poller, and wires {@link TableDeletion}, {@link ControlPlanePass}, {@link TableCreation} and
 * {@link TableService} over the backend's {@link ControlPlanePorts}, in three explicit steps:
 * <ol>
 *   <li>construction: the poller exists and this object is already the {@link WakeSignal} everything
 *       else is given (the snapshot engine, a catalog that wakes the poller itself); nothing runs;</li>
 *   <li>{@link #wire(ControlPlanePorts)}, once: builds the lifecycle machinery and the table service,
 *       and returns the service;</li>
 *   <li>{@link #start()}: starts the poller, whose first pass is startup recovery. A read-only opening
 *       never starts it.</li>
 * </ol>
 * Each pass runs the backend's chores (each one's failure logged, never stopping the pass), then the
 * statistics refresh when due, then the pass's activations and drop retries. Cassandra has no
 * control plane (nothing is ever due later: CreateTable answers ACTIVE, DeleteTable is synchronous
 * [C2]); {@link InlineStorageCore} wires its {@link TableService} with its own creator and an inline
 * {@link TableDeletion} instead.
 */
public final class ControlPlane implements WakeSignal, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

    private final TimeSource time;
    private final ControlPlanePoller poller;
    private final StorageEvents events;
    // Assigned by wire(), before start(): the poller's thread reads them only after Thread.start.
    private List<PassChore> chores;
    private StatisticsRefresh statistics;
    private ControlPlanePass pass;
    private TableRestores restores;

    /**
     * A control plane whose poller follows {@code schedule} on a daemon thread named {@code threadName}.
     *
     * @param time       the clock the lifecycle and the poller read
     * @param schedule   the poller's idle and active cadence [D8]
     * @param threadName the poller thread's name
     */
    public ControlPlane(TimeSource time, PollerSchedule schedule, String threadName) {
        this(time, schedule, threadName, StorageEvents.NONE);
    }

    /**
     * A control plane as above, whose poller, pass, table service and restores tell {@code events}
     * what they do [X1].
     *
     * @param time       the clock the lifecycle and the poller read
     * @param schedule   the poller's idle and active cadence [D8]
     * @param threadName the poller thread's name
     * @param events     told of passes, writes and restored items; offered the deferred drops at {@link #wire}
     */
    public ControlPlane(TimeSource time, PollerSchedule schedule, String threadName, StorageEvents events) {
        this.time = Objects.requireNonNull(time, "time");
        this.events = Objects.requireNonNull(events, "events");
        this.poller = new ControlPlanePoller(schedule, this::runPass, time, threadName, events);
    }

    /**
     * Wires CreateTable, DeleteTable, the pass and the table service over the backend's ports, and
     * returns the service. Called once, before {@link #start()}.
     *
     * @param ports the backend's driven ports
     * @return the table operations over them, every request rule checked by the core
     * @throws IllegalStateException when already wired
     */
    public synchronized TableOperations wire(ControlPlanePorts ports) {
        Objects.requireNonNull(ports, "ports");
        if (pass != null) {
            throw new IllegalStateException("this control plane is already wired");
        }
        TableDeletion deletion = new TableDeletion(ports.drops(), time, this, ports.deletionDelay());
        chores = ports.chores();
        // ItemCount and TableSizeBytes are recounted on the first pass and every few minutes after.
        statistics = new StatisticsRefresh(ports.statistics(), time, StatisticsRefresh.DEFAULT_INTERVAL);
        pass = new ControlPlanePass(ports.store(), deletion, time);
        events.deferredDrops(pass.deferredDrops());
        // One write sequence, so one definition cache, for the item operations and the restores.
        ItemWrites writes = new ItemWrites(ports.items());
        restores = new RestoreService(ports.store(), ports.catalog(), writes, deletion, time,
                ports.restoreIdleLimit(), events, ports.bulkLoads());
        return new TableService(ports.catalog(), writes, new TableCreation(ports.store(), time, this), deletion,
                events);
    }

    /**
     * Restores into new tables over the ports {@link #wire(ControlPlanePorts)} was given [E4, E5]; their
     * dead restores are removed by this control plane's passes.
     *
     * @return the restores
     * @throws IllegalStateException when not wired yet
     */
    public synchronized TableRestores restores() {
        if (restores == null) {
            throw new IllegalStateException("a control plane restores only once wired");
        }
        return restores;
    }

    /**
     * Starts the poller; its first pass is startup recovery.
     *
     * @throws IllegalStateException when not wired yet
     */
    public synchronized void start() {
        if (pass == null) {
            throw new IllegalStateException("a control plane starts only once wired");
        }
        poller.start();
    }

    /** Asks the poller for a pass now (a snapshot's release, a deferred drop, a CreateTable); never blocks. */
    @Override
    public void wake() {
        poller.wake();
    }

    /**
     * The poller's state, for diagnostics.
     *
     * @return IDLE, ACTIVE while a drop is deferred, and so on
     */
    public PollerState pollerState() {
        return poller.state();
    }

    /**
     * Poller passes run so far, for diagnostics.
     *
     * @return the number of passes since start
     */
    public long pollerPasses() {
        return poller.passesRun();
    }

    /**
     * Waits, at most {@code timeout}, until the startup-recovery pass has finished; at once when the poller
     * was never started.
     *
     * @param timeout the longest wait
     * @return whether it finished within the timeout
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitStartupRecovery(Duration timeout) throws InterruptedException {
        return poller.awaitFirstPass(timeout);
    }

    /** Stops the poller, waiting for a pass in progress; a poller never started stops at once. */
    @Override
    public void close() {
        poller.close();
    }

    private PollerEvent.PassFinished runPass() {
        for (PassChore chore : chores) {
            try {
                chore.work().run();
            } catch (RuntimeException e) {
                // The next pass retries; the pass's own transitions must not wait for a chore.
                LOG.warn("{}: {}", chore.name(), e instanceof StorageException ? e.getMessage() : e.toString());
            }
        }
        statistics.runIfDue();
        return pass.run();
    }
}

package dev.stillpoint.core;

import dev.stillpoint.core.lifecycle.ControlPlanePoller;
import dev.stillpoint.core.lifecycle.RestoreSweep;
import dev.stillpoint.core.lifecycle.StatisticsRefresh;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.poller.PollerEvent;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import dev.stillpoint.ports.out.WakeSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root of a backend without a control plane (Cassandra) [C2]: a table is ACTIVE when
 * CreateTable returns and gone when DeleteTable returns, so the core wires an inline
 * {@link TableDeletion} (zero delay, no wake) and no {@link ControlPlane}. What is still due later runs
 * on a small poller of its own: ItemCount and TableSizeBytes recounted on its first pass and every few
 * minutes after, and, on every pass, the removal of a restore whose stamp has passed [E5]. The
 * counterpart of {@link StorageCore}, so that no adapter assembles the core's services itself.
 */
public final class InlineStorageCore implements CoreServices {

    private static final Logger LOG = LoggerFactory.getLogger(InlineStorageCore.class);

    private final CoreSettings settings;
    private final String pollerThreadName;
    // Assigned by assemble(), before start().
    private TableOperations tables;
    private TableRestores restores;
    private ControlPlanePoller poller;

    /**
     * A core not yet assembled: its facade's constructor calls {@link #assemble} once its ports are open.
     *
     * @param settings         the shared settings (the clock, the poller's cadence, the restore idle limit, events)
     * @param pollerThreadName the poller thread's name
     */
    public InlineStorageCore(CoreSettings settings, String pollerThreadName) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.pollerThreadName = Objects.requireNonNull(pollerThreadName, "pollerThreadName");
    }

    /**
     * Wires the table service and the restores over {@code ports}; the poller starts with {@link #start()}.
     *
     * @param ports the backend's driven ports
     * @throws IllegalStateException when already assembled
     */
    public synchronized void assemble(InlineCorePorts ports) {
        Objects.requireNonNull(ports, "ports");
        if (poller != null) {
            throw new IllegalStateException("this core is already assembled");
        }
        TableDeletion deletion = new TableDeletion(ports.drops(), settings.time(), WakeSignal.NONE, () -> Duration.ZERO);
        ItemWrites writes = new ItemWrites(ports.items());
        this.tables = new TableService(ports.catalog(), writes, ports.creator(), deletion, settings.events());
        this.restores = new RestoreService(ports.restores(), ports.catalog(), writes, deletion, settings.time(),
                settings.restoreIdleLimit(), settings.events(), ports.bulkLoads());
        StatisticsRefresh statistics = new StatisticsRefresh(ports.statistics(), settings.time(),
                StatisticsRefresh.DEFAULT_INTERVAL);
        RestoreSweep sweep = new RestoreSweep(deletion, settings.time());
        this.poller = new ControlPlanePoller(settings.pollerSchedule(), () -> {
            statistics.runIfDue();
            RestoreSweep.Outcome swept = new RestoreSweep.Outcome(false, Optional.empty());
            try {
                swept = sweep.run(ports.restores().restoringTables());
            } catch (StorageException e) {
                // The next pass tries again; a sweep that fails must not stop the recount.
                LOG.warn("restore sweep: {}", e.getMessage());
            }
            return new PollerEvent.PassFinished(settings.time().now(), swept.deferred() ? 1 : 0, swept.nextDue());
        }, settings.time(), pollerThreadName, settings.events());
    }

    /** Starts the poller; its first pass recounts and sweeps dead restores. */
    public void start() {
        assembled(poller).start();
    }

    /**
     * The table and item operations, every request rule checked by the core.
     *
     * @return the table service
     */
    @Override
    public TableOperations tables() {
        return assembled(tables);
    }

    /**
     * Restores into new tables [E4, E5].
     *
     * @return the restores
     */
    @Override
    public TableRestores restores() {
        return assembled(restores);
    }

    @Override
    public boolean awaitStartupRecovery(Duration timeout) throws InterruptedException {
        ControlPlanePoller p;
        synchronized (this) {
            p = poller;
        }
        return p == null || p.awaitFirstPass(timeout);
    }

    /** Stops the poller, if assembled. */
    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.close();
        }
    }

    private synchronized <T> T assembled(T part) {
        if (part == null) {
            throw new IllegalStateException("this core is not assembled yet");
        }
        return part;
    }
}

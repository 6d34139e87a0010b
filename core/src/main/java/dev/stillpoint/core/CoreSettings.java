package dev.stillpoint.core;

import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.util.Objects;

/**
 * The settings every backend's core shares, read by {@link StorageCore} alone: a backend's config
 * holds them beside its own (files, URLs, pools) and hands them over as one record, so no facade
 * reads them one by one.
 *
 * @param pageBudget         rows and bytes per snapshot page [S7]
 * @param pollerSchedule     the control-plane poller's idle and active cadence [D8]
 * @param observer           test hooks (pauses, round trips); {@link ReadObserver#NONE} in production
 * @param time               the clock the lifecycle, the leases and the poller read
 * @param snapshotIdleLimit  how long a snapshot stream may go without a page fetch before it is reclaimed [L1]
 * @param restoreIdleLimit   how long a restore may give no sign of life before it is taken for dead [E5]
 * @param events             told what the storage does, for an embedder's metrics [X1]
 */
public record CoreSettings(PageBudget pageBudget, PollerSchedule pollerSchedule, ReadObserver observer,
                           TimeSource time, IdleLimit snapshotIdleLimit, RestoreIdleLimit restoreIdleLimit,
                           StorageEvents events) {

    /**
     * Requires every setting.
     *
     * @param pageBudget        rows and bytes per snapshot page
     * @param pollerSchedule    the poller's cadence
     * @param observer          test hooks
     * @param time              the clock
     * @param snapshotIdleLimit the snapshot idle limit
     * @param restoreIdleLimit  the restore idle limit
     * @param events            the embedder's watcher
     */
    public CoreSettings {
        Objects.requireNonNull(pageBudget, "pageBudget");
        Objects.requireNonNull(pollerSchedule, "pollerSchedule");
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(snapshotIdleLimit, "snapshotIdleLimit");
        Objects.requireNonNull(restoreIdleLimit, "restoreIdleLimit");
        Objects.requireNonNull(events, "events");
    }
}

package dev.stillpoint.core;

import dev.stillpoint.domain.error.StorageException;

import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.snapshot.IdleLimit;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;

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
 * @param changeLogRetention how long a table's change log keeps its changes, at least; the control plane
 *                           trims it past that [I4] (default {@link #DEFAULT_CHANGE_LOG_RETENTION})
 */
public record CoreSettings(PageBudget pageBudget, PollerSchedule pollerSchedule, ReadObserver observer,
                           TimeSource time, IdleLimit snapshotIdleLimit, RestoreIdleLimit restoreIdleLimit,
                           StorageEvents events, Duration changeLogRetention) {

    /** A day, as DynamoDB's incremental exports reach at least a day back within a PITR window. */
    public static final Duration DEFAULT_CHANGE_LOG_RETENTION = Duration.ofDays(1);

    /** Production defaults: the default page budget, poller cadence, idle limits and retention; no hooks, no watcher. */
    public static final CoreSettings DEFAULT = new CoreSettings(PageBudget.DEFAULT, PollerSchedule.DEFAULT,
            ReadObserver.NONE, TimeSource.SYSTEM, IdleLimit.DEFAULT, RestoreIdleLimit.DEFAULT, StorageEvents.NONE,
            DEFAULT_CHANGE_LOG_RETENTION);

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
     * @param changeLogRetention the change log's retention [I4]; positive
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION naming a retention that is zero or negative
     */
    public CoreSettings {
        given(pageBudget, "pageBudget");
        given(pollerSchedule, "pollerSchedule");
        given(observer, "observer");
        given(time, "time");
        given(snapshotIdleLimit, "snapshotIdleLimit");
        given(restoreIdleLimit, "restoreIdleLimit");
        // A config's withEvents(null) has always meant "no watcher".
        events = events == null ? StorageEvents.NONE : events;
        given(changeLogRetention, "changeLogRetention");
        if (changeLogRetention.isZero() || changeLogRetention.isNegative()) {
            throw dev.stillpoint.domain.error.StorageException.validation("change log retention " + changeLogRetention
                    + " is not positive [I4]");
        }
    }

    /**
     * The settings with the default change log retention.
     *
     * @param pageBudget        rows and bytes per snapshot page
     * @param pollerSchedule    the poller's cadence
     * @param observer          test hooks
     * @param time              the clock
     * @param snapshotIdleLimit the snapshot idle limit
     * @param restoreIdleLimit  the restore idle limit
     * @param events            the embedder's watcher
     */
    public CoreSettings(PageBudget pageBudget, PollerSchedule pollerSchedule, ReadObserver observer, TimeSource time,
                        IdleLimit snapshotIdleLimit, RestoreIdleLimit restoreIdleLimit, StorageEvents events) {
        this(pageBudget, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events,
                DEFAULT_CHANGE_LOG_RETENTION);
    }

    /**
     * These settings with another page budget [S7].
     *
     * @param budget rows and bytes per snapshot page
     * @return the settings with it
     */
    public CoreSettings withPageBudget(PageBudget budget) {
        return new CoreSettings(budget, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events,
                changeLogRetention);
    }

    /**
     * These settings with another poller cadence [D8].
     *
     * @param schedule the poller's idle and active cadence
     * @return the settings with it
     */
    public CoreSettings withPollerSchedule(PollerSchedule schedule) {
        return new CoreSettings(pageBudget, schedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events,
                changeLogRetention);
    }

    /**
     * These settings with other test hooks.
     *
     * @param hooks pauses and round-trip counts; {@link ReadObserver#NONE} in production
     * @return the settings with them
     */
    public CoreSettings withObserver(ReadObserver hooks) {
        return new CoreSettings(pageBudget, pollerSchedule, hooks, time, snapshotIdleLimit, restoreIdleLimit, events,
                changeLogRetention);
    }

    /**
     * These settings reading another clock.
     *
     * @param clock the clock the lifecycle, the leases, the poller and the trim read
     * @return the settings with it
     */
    public CoreSettings withTime(TimeSource clock) {
        return new CoreSettings(pageBudget, pollerSchedule, observer, clock, snapshotIdleLimit, restoreIdleLimit, events,
                changeLogRetention);
    }

    /**
     * These settings with another snapshot idle limit [L1].
     *
     * @param limit the limit; validated, the error naming the value
     * @return the settings with it
     */
    public CoreSettings withSnapshotIdleLimit(Duration limit) {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, new IdleLimit(limit), restoreIdleLimit,
                events, changeLogRetention);
    }

    /**
     * These settings with another restore idle limit [E5].
     *
     * @param limit the limit; validated, the error naming the value
     * @return the settings with it
     */
    public CoreSettings withRestoreIdleLimit(Duration limit) {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, snapshotIdleLimit,
                new RestoreIdleLimit(limit), events, changeLogRetention);
    }

    /**
     * These settings telling another watcher what the storage does [X1].
     *
     * @param watcher the embedder's watcher; null for none
     * @return the settings with it
     */
    public CoreSettings withEvents(StorageEvents watcher) {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit,
                watcher, changeLogRetention);
    }

    /**
     * These settings with another change log retention [I4].
     *
     * @param retention how long a change log keeps its changes, at least; positive
     * @return the settings with it
     */
    public CoreSettings withChangeLogRetention(Duration retention) {
        return new CoreSettings(pageBudget, pollerSchedule, observer, time, snapshotIdleLimit, restoreIdleLimit, events,
                retention);
    }

    /** A setting left null is the embedder's input refused, VALIDATION naming it, as every other bad setting is [R6]. */
    private static void given(Object value, String setting) {
        if (value == null) {
            throw StorageException.validation(setting + " must be given, got null");
        }
    }
}

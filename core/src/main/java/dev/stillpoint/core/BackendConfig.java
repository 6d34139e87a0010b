package dev.stillpoint.core;

import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;

/**
 * A backend's config: its own settings (files, URLs, pools) beside one {@link CoreSettings} that every
 * backend shares. The shared settings' readers and {@code withX} methods are written here once, so a
 * backend's config declares only what is its own and how to copy itself with other core settings.
 *
 * @param <C> the backend's config type, which every {@code withX} returns
 */
public interface BackendConfig<C extends BackendConfig<C>> {

    /**
     * The settings the core reads, as one record for {@link StorageCore} or {@link InlineStorageCore}.
     *
     * @return the shared settings
     */
    CoreSettings coreSettings();

    /**
     * This config with other shared settings, its own unchanged.
     *
     * @param settings the shared settings
     * @return the config with them
     */
    C withCoreSettings(CoreSettings settings);

    /**
     * Rows and bytes per snapshot page [S7].
     *
     * @return the page budget
     */
    default PageBudget pageBudget() {
        return coreSettings().pageBudget();
    }

    /**
     * The control-plane poller's idle and active cadence [D8].
     *
     * @return the schedule
     */
    default PollerSchedule pollerSchedule() {
        return coreSettings().pollerSchedule();
    }

    /**
     * Test hooks (pauses, round trips); {@link ReadObserver#NONE} in production.
     *
     * @return the hooks
     */
    default ReadObserver observer() {
        return coreSettings().observer();
    }

    /**
     * The clock the lifecycle, the leases, the poller and the change log's trim read.
     *
     * @return the clock
     */
    default TimeSource time() {
        return coreSettings().time();
    }

    /**
     * How long a snapshot stream may go without a page fetch before it is reclaimed [L1]; default 60 s.
     *
     * @return the limit
     */
    default Duration snapshotIdleLimit() {
        return coreSettings().snapshotIdleLimit().duration();
    }

    /**
     * How long a restore may give no sign of life before any opening's poller takes it for dead [E5]; default 60 s.
     *
     * @return the limit
     */
    default Duration restoreIdleLimit() {
        return coreSettings().restoreIdleLimit().duration();
    }

    /**
     * What is told of the storage's work, for an embedder's metrics [X1]; {@link StorageEvents#NONE} by default.
     *
     * @return the watcher
     */
    default StorageEvents events() {
        return coreSettings().events();
    }

    /**
     * How long a table's change log keeps its changes, at least [I4]; default a day.
     *
     * @return the retention
     */
    default Duration changeLogRetention() {
        return coreSettings().changeLogRetention();
    }

    /**
     * The same config with another page budget [S7].
     *
     * @param budget rows and bytes per page
     * @return the config with it
     */
    default C withPageBudget(PageBudget budget) {
        return withCoreSettings(coreSettings().withPageBudget(budget));
    }

    /**
     * The same config with another poller cadence [D8].
     *
     * @param schedule the cadence
     * @return the config with it
     */
    default C withPollerSchedule(PollerSchedule schedule) {
        return withCoreSettings(coreSettings().withPollerSchedule(schedule));
    }

    /**
     * The same config with other test hooks.
     *
     * @param hooks the hooks
     * @return the config with them
     */
    default C withObserver(ReadObserver hooks) {
        return withCoreSettings(coreSettings().withObserver(hooks));
    }

    /**
     * The same config reading {@code clock}: the lifecycle, the leases, the poller and the change log's trim
     * take their time from it (a test's manual clock).
     *
     * @param clock the clock
     * @return the config with it
     */
    default C withTime(TimeSource clock) {
        return withCoreSettings(coreSettings().withTime(clock));
    }

    /**
     * The same config with another snapshot idle limit [L1]; from 100 ms to one day.
     *
     * @param limit the limit; validated, the error naming the value
     * @return the config with it
     */
    default C withSnapshotIdleLimit(Duration limit) {
        return withCoreSettings(coreSettings().withSnapshotIdleLimit(limit));
    }

    /**
     * The same config with another restore idle limit [E5]; from 1 s to one day.
     *
     * @param limit the limit; validated, the error naming the value
     * @return the config with it
     */
    default C withRestoreIdleLimit(Duration limit) {
        return withCoreSettings(coreSettings().withRestoreIdleLimit(limit));
    }

    /**
     * The same config telling {@code events} what the storage does [X1]: permits, leases, passes,
     * deferred drops, pages streamed, writes and restored items.
     *
     * @param events the embedder's watcher, e.g. {@code metrics-micrometer}'s {@code StillpointMeters}
     * @return the config with it
     */
    default C withEvents(StorageEvents events) {
        return withCoreSettings(coreSettings().withEvents(events));
    }

    /**
     * The same config with another change log retention [I4]: the control plane trims each table's log past
     * it, and a marker older than the log kept is refused by name.
     *
     * @param retention how long a change log keeps its changes, at least; positive
     * @return the config with it
     */
    default C withChangeLogRetention(Duration retention) {
        return withCoreSettings(coreSettings().withChangeLogRetention(retention));
    }
}

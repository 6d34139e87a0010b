package dev.stillpoint.ports.snapshot;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.LeaseEvent;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.ReadWindow;
import dev.stillpoint.ports.out.SnapshotReadPort;
import dev.stillpoint.ports.out.WakeSignal;
import java.lang.ref.Cleaner;

/**
 * The one implementation of {@link SnapshotEngine} the snapshot-capable adapters share: a permit,
 * the lease machine, the adapter's read window with the two pauses inside it, and a stream that
 * releases on every path [S1-S7, D6, D7]. Adapters supply only the {@link SnapshotReadPort}.
 */
public final class LeasedSnapshotEngine implements SnapshotEngine {

    private final SnapshotReadPort reads;
    private final PermitLedger permits;
    private final WakeSignal wake;
    private final PageBudget budget;
    private final ReadObserver observer;
    private final Cleaner cleaner;

    public LeasedSnapshotEngine(SnapshotReadPort reads, PermitLedger permits, WakeSignal wake,
                                PageBudget budget, ReadObserver observer, Cleaner cleaner) {
        this.reads = reads;
        this.permits = permits;
        this.wake = wake;
        this.budget = budget;
        this.observer = observer;
        this.cleaner = cleaner;
    }

    @Override
    public TableSnapshot openTableSnapshot(String accountId, String tableName) {
        Lease lease = new Lease(permits, wake, tableName, observer);
        try {
            permits.acquire(HolderKind.TABLE_SNAPSHOT);
        } catch (StorageException refused) {
            lease.apply(LeaseEvent.PERMIT_REFUSED);
            throw refused;
        }
        lease.apply(LeaseEvent.PERMIT_GRANTED);
        try {
            return open(lease, accountId, tableName);
        } catch (RuntimeException | Error e) {
            // An interrupted caller abandoned the open; anything else is a failed open. Both release.
            lease.apply(Thread.currentThread().isInterrupted() ? LeaseEvent.CLOSED : LeaseEvent.FAILED);
            throw e;
        }
    }

    private TableSnapshot open(Lease lease, String accountId, String tableName) {
        ReadWindow window = reads.begin(accountId, tableName, observer);
        lease.own(window);
        TableDescription description = window.readDefinition();
        lease.apply(LeaseEvent.DEFINITION_READ);
        if (description.status() != TableStatus.ACTIVE) {
            throw new StorageException(ErrorReason.RESOURCE_IN_USE, "table '" + tableName + "' is "
                    + description.status() + "; a snapshot needs an ACTIVE table");
        }
        observer.atPause(PausePoint.AFTER_DEFINITION);
        SnapshotInfo info = window.pin();
        lease.apply(LeaseEvent.SNAPSHOT_PINNED);
        observer.atPause(PausePoint.BEFORE_ITEMS);
        boolean keyOrdered = window.keyOrdered();
        PageSource pages = window.pages();
        lease.ownPages(pages);
        lease.apply(LeaseEvent.STREAM_STARTED);
        TableDescription atInstant = description.dropDeletingIndexes().snapshotView();
        return new TableSnapshot(atInstant, info, keyOrdered, new LeasedItemStream(lease, budget, cleaner));
    }
}

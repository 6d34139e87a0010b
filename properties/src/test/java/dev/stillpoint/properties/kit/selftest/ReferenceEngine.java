package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.poller.PollerSchedule;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.core.TableService;
import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import java.util.Map;
import java.util.function.UnaryOperator;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.ControlPlanePoller;
import dev.stillpoint.core.lifecycle.TableCreation;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.ports.out.WakeSignal;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.properties.machinery.DescribedTable;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.properties.machinery.RecordedUnit;
import dev.stillpoint.properties.machinery.NoRestores;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The reference adapter: an engine over {@link ReferenceDatabase}, wired the way a real adapter is,
 * through the shared machinery (TableCreation, TableDeletion, ControlPlanePass and a real
 * ControlPlanePoller; LeasedSnapshotEngine and PermitLedger). It exists only to test the kit.
 */
public final class ReferenceEngine implements KitEngine {

    /** The connection pool the reference pretends to have: 8, so 4 snapshot permits [D7]. */
    static final int POOL_SIZE = 8;
    static final Duration SLOW_UPDATE = Duration.ofMillis(2500);
    private static final Cleaner CLEANER = Cleaner.create();

    private final ReferenceDatabase db;
    private final Flaw flaw;
    private final ControlPlanePoller poller;
    private final TableCreation creation;
    private final TableDeletion deletion;
    private final PermitLedger permits = new PermitLedger(PermitPool.halfOf(POOL_SIZE));
    private final SnapshotEngine snapshots;
    private final TableOperations tables;

    ReferenceEngine(ReferenceDatabase db, KitSettings settings, Flaw flaw) {
        this.db = db;
        this.flaw = flaw;
        Catalog catalog = new Catalog(settings.controlPlaneDelay());
        ForwardingWake wake = new ForwardingWake();
        this.deletion = new TableDeletion(catalog, TimeSource.SYSTEM, wake, settings::controlPlaneDelay);
        ControlPlanePass pass = new ControlPlanePass(catalog, deletion, TimeSource.SYSTEM);
        this.poller = new ControlPlanePoller(PollerSchedule.DEFAULT, pass::run, TimeSource.SYSTEM, "reference-poller");
        wake.target = poller;
        this.creation = new TableCreation(catalog, TimeSource.SYSTEM, poller);
        Storage storage = new Storage();
        this.tables = new FlawedTables(new TableService(storage, new ItemWrites(storage), creation, deletion), db, creation, flaw);
        LeasedSnapshotEngine leased = new LeasedSnapshotEngine(new ReferenceReadPort(db, flaw), permits, poller,
                settings.pageBudget(), settings.observer(), CLEANER);
        this.snapshots = flaw == Flaw.PERMIT_KEPT_WHEN_REFUSING_A_NON_ACTIVE_TABLE ? keepingPermits(leased) : leased;
        poller.start();
    }

    @Override
    public TableOperations tables() {
        return tables;
    }

    @Override
    public SnapshotEngine snapshots() {
        return snapshots;
    }

    @Override
    public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        db.recordRestore(accountId, tableName, summary);
    }

    @Override
    public void close() {
        poller.close();
    }

    private SnapshotEngine keepingPermits(SnapshotEngine leased) {
        return (account, table, storedKeys) -> {
            try {
                return leased.openTableSnapshot(account, table, storedKeys);
            } catch (StorageException e) {
                if (e.reason() == ErrorReason.RESOURCE_IN_USE) {
                    try {
                        permits.acquire(HolderKind.TABLE_SNAPSHOT);
                    } catch (StorageException full) {
                        // Already exhausted by earlier leaks.
                    }
                }
                throw e;
            }
        };
    }

    /** The poller does not exist yet when TableDeletion needs its wake; this forwards to it once it does. */
    private static final class ForwardingWake implements WakeSignal {
        volatile WakeSignal target = WakeSignal.NONE;

        @Override
        public void wake() {
            target.wake();
        }
    }

    /** The reference's storage side of the core's table operations: the database, nothing else. */
    private final class Storage implements TableCatalog, ItemStorage {
        @Override
        public Optional<TableDescription> describe(String accountId, String tableName) {
            return db.find(accountId, tableName).map(TableRecord::description);
        }

        @Override
        public List<String> tableNames(String accountId) {
            return db.tableNames(accountId);
        }

        /** One atomic build: the database takes the definition, with the index ACTIVE, when it is activated. */
        @Override
        public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work) {
            if (flaw == Flaw.SLOW_UPDATE_TABLE) {
                try {
                    new CountDownLatch(1).await(SLOW_UPDATE.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return work.run(new IndexBuild() {
                private TableDescription recorded;

                @Override
                public boolean atomic() {
                    return true;
                }

                @Override
                public Optional<StorageTable> load(String accountId, String tableName) {
                    return db.find(accountId, tableName).map(r -> new DescribedTable(r.description()));
                }

                @Override
                public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
                    recorded = after;
                    return Optional.of(new DescribedTable(after));
                }

                @Override
                public ItemScan scan(StorageTable table) {
                    // The reference derives index entries from its items on every read: nothing to copy.
                    return new ItemScan() {
                        @Override
                        public List<BaseItem> next(int max) {
                            return List.of();
                        }

                        @Override
                        public void close() {
                        }
                    };
                }

                @Override
                public void write(StorageTable table, String indexName, List<BackfillEntry> entries) {
                }

                @Override
                public void activate(StorageTable table, String indexName) {
                    TableDescription d = table.description();
                    db.addGsi(d.accountId(), d.tableName(), recorded.withIndexStatus(indexName, IndexStatus.ACTIVE));
                }
            });
        }

        @Override
        public <T> T inUnit(String doing, UnitWork<T> work) {
            // The unit keeps the changes and the database applies them together, as a transaction would.
            RecordedUnit unit = new RecordedUnit(true, this::table, (table, change) -> { });
            T result = work.run(unit);
            db.apply(unit.accountId(), unit.changes);
            return result;
        }

        @Override
        public boolean versionedCatalog() {
            return false;
        }

        @Override
        public Optional<StorageTable> table(String accountId, String tableName) {
            return db.find(accountId, tableName).map(r -> new DescribedTable(r.description()));
        }

        @Override
        public Optional<Item> read(StorageTable table, Key key) {
            return db.read(table.description().accountId(), table.description().tableName(), key);
        }
    }

    /** The catalog as the shared lifecycle machinery sees it; drops never meet a holder (a copy holds nothing). */
    private final class Catalog implements NoRestores, TableDropPort {
        private final Duration delay;

        Catalog(Duration delay) {
            this.delay = delay;
        }

        @Override
        public Duration controlPlaneDelay() {
            return delay;
        }

        @Override
        public Optional<TableRecord> find(String accountId, String tableName) {
            return db.find(accountId, tableName);
        }

        @Override
        public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
            return db.insertCreating(request, activateAt);
        }

        @Override
        public boolean markActive(String accountId, String tableName) {
            return db.markActive(accountId, tableName);
        }

        @Override
        public List<PendingTransition> pendingTransitions() {
            return db.pendingTransitions();
        }

        @Override
        public DropAttempt beginDrop(String accountId, String tableName) {
            TableRecord record = db.find(accountId, tableName)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            return new DropAttempt() {
                private Optional<TableState.Deleting> deleting = Optional.empty();
                private boolean remove;

                @Override
                public TableRecord record() {
                    return record;
                }

                @Override
                public boolean probeHolders() {
                    return false;
                }

                @Override
                public DropResult dropRelations(Duration budget) {
                    return DropResult.DROPPED;
                }

                @Override
                public void rollBackDrops() {
                    remove = false;
                }

                @Override
                public void markDeleting(TableState.Deleting state) {
                    deleting = Optional.of(state);
                }

                @Override
                public void removeCatalogRow() {
                    remove = true;
                }

                @Override
                public void commit() {
                    db.commitDrop(accountId, tableName, deleting, remove);
                }

                @Override
                public void close() {
                }
            };
        }
    }
}

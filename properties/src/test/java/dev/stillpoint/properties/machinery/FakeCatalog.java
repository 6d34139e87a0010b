package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A fake catalog for testing the shared lifecycle machinery alone (no database): rows in a map
 * (restoring ones included), a drop attempt that stages its writes until commit, scripted probe and
 * drop answers, and a log of every call in order.
 */
final class FakeCatalog implements ControlPlaneStore, TableDropPort {

    final Map<String, TableRecord> rows = new ConcurrentHashMap<>();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    volatile Duration delay = Duration.ofMillis(250);
    volatile Function<String, Boolean> held = table -> false;
    volatile Function<String, DropResult> dropAnswer = table -> DropResult.DROPPED;
    private final AtomicInteger instances = new AtomicInteger();

    @Override
    public Duration controlPlaneDelay() {
        return delay;
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return Optional.ofNullable(rows.get(tableName));
    }

    @Override
    public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        TableDescription d = request.describe("id-" + request.tableName(), "arn:" + request.tableName(), activateAt);
        if (rows.putIfAbsent(request.tableName(), new TableRecord(d, new TableState.Creating(activateAt))) != null) {
            throw StorageException.resourceInUse("table exists: " + request.tableName());
        }
        calls.add("insert " + request.tableName());
        return d;
    }

    // A restoring row carries its summary in progress and its stamp; every restore gets a new table id [E4, E5].
    @Override
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        TableDescription d = withSummary(request.describe("id-" + request.tableName() + "-" + instances.incrementAndGet(),
                "arn:" + request.tableName(), summary.restoreDateTime()), summary);
        if (rows.putIfAbsent(request.tableName(), new TableRecord(d, new TableState.Restoring(aliveUntil))) != null) {
            throw StorageException.resourceInUse("table exists: " + request.tableName());
        }
        calls.add("insert-restoring " + request.tableName());
        return d;
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        calls.add("renew " + tableName);
        return restoring(tableName, tableId, r -> new TableRecord(r.description(), new TableState.Restoring(aliveUntil)));
    }

    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        calls.add("complete " + tableName);
        return restoring(tableName, tableId, r -> {
            TableDescription d = r.description();
            RestoreSummary done = d.restoreSummary().map(s -> new RestoreSummary(s.sourceBackupArn(),
                    s.sourceTableArn(), s.restoreDateTime(), false)).orElseThrow();
            return new TableRecord(withSummary(d.withStatus(TableStatus.ACTIVE), done), new TableState.Active());
        });
    }

    /** Replaces the row of {@code tableId} if it is still restoring; false otherwise. */
    private boolean restoring(String tableName, String tableId, UnaryOperator<TableRecord> change) {
        boolean[] changed = new boolean[1];
        rows.computeIfPresent(tableName, (name, r) -> {
            if (!(r.state() instanceof TableState.Restoring) || !r.description().tableId().equals(tableId)) {
                return r;
            }
            changed[0] = true;
            return change.apply(r);
        });
        return changed[0];
    }

    private static TableDescription withSummary(TableDescription d, RestoreSummary summary) {
        return new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(),
                Optional.of(summary), d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        TableRecord r = rows.get(tableName);
        if (r == null || !(r.state() instanceof TableState.Creating)) {
            return false;
        }
        rows.put(tableName, new TableRecord(r.description().withStatus(TableStatus.ACTIVE), new TableState.Active()));
        calls.add("activate " + tableName);
        return true;
    }

    @Override
    public List<PendingTransition> pendingTransitions() {
        List<PendingTransition> out = new ArrayList<>();
        rows.forEach((name, r) -> {
            if (r.state() instanceof TableState.Creating || r.state() instanceof TableState.Deleting
                    || r.state() instanceof TableState.Restoring) {
                out.add(new PendingTransition("acct", name, r.state()));
            }
        });
        return out;
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        TableRecord r = rows.get(tableName);
        if (r == null) {
            throw StorageException.tableNotFound(tableName);
        }
        calls.add("begin " + tableName);
        return new Attempt(tableName, r);
    }

    private final class Attempt implements DropAttempt {
        private final String table;
        private final TableRecord record;
        private TableRecord staged;
        private boolean removeStaged;
        private boolean dropsStaged;

        Attempt(String table, TableRecord record) {
            this.table = table;
            this.record = record;
        }

        @Override
        public TableRecord record() {
            return record;
        }

        @Override
        public boolean probeHolders() {
            calls.add("probe " + table);
            return held.apply(table);
        }

        @Override
        public DropResult dropRelations(Duration budget) {
            calls.add("drop " + table);
            DropResult result = dropAnswer.apply(table);
            dropsStaged = result.outcome() == dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome.DROPPED;
            return result;
        }

        @Override
        public void rollBackDrops() {
            calls.add("rollback-drops " + table);
            dropsStaged = false;
        }

        @Override
        public void markDeleting(TableState.Deleting deleting) {
            calls.add("mark-deleting " + table + " " + deleting.retry());
            staged = new TableRecord(record.description().withStatus(TableStatus.DELETING), deleting);
        }

        @Override
        public void removeCatalogRow() {
            calls.add("remove-row " + table);
            if (!dropsStaged) {
                throw new AssertionError("row removed before every drop succeeded");
            }
            removeStaged = true;
        }

        @Override
        public void commit() {
            calls.add("commit " + table);
            if (removeStaged) {
                rows.remove(table);
            } else if (staged != null) {
                rows.put(table, staged);
            }
        }

        @Override
        public void close() {
            calls.add("close " + table);
        }
    }
}

package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.RestoreStore;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Restoring rows on Cassandra [E4, E5]. Cassandra's CreateTable is ACTIVE at once, so a restore has its
 * own path: the restore's row in {@code restores} (catalog schema step 4, by table id) is written first,
 * then the table's row CREATING (the same LWT that arbitrates a name in use) and its data tables. The
 * table row's activation is the commit point of the completion; the restore row's {@code in_progress}
 * follows it, and a description shows the summary in progress only while the table is CREATING. Every
 * change is an LWT conditional on the table id (and the restore still in progress), so nothing done for
 * one table instance ever touches a newer one of the same name. The statistics poller lists
 * {@link #restoringTables()} and removes dead restores through the core's {@code RestoreSweep}.
 */
final class CassandraRestores implements RestoreStore {

    private final CatalogStore catalog;
    private final CassandraTables tables;
    private final CassandraConfig config;

    CassandraRestores(CatalogStore catalog, CassandraTables tables, CassandraConfig config) {
        this.catalog = catalog;
        this.tables = tables;
        this.config = config;
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(row -> {
            Optional<RestoreRecord> restore = catalog.restore(row.tableId());
            return new TableRecord(row.description(restore), InlineDrops.state(row, restore, config.time().now(),
                    config.staleCreatingAfter()));
        });
    }

    @Override
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        String tableId = DataNames.newTableId();
        // CQL timestamps hold milliseconds: the description answered now is the one read back later.
        RestoreRecord restore = new RestoreRecord(tableId, request.accountId(), request.tableName(),
                summary.sourceTableArn(), summary.restoreDateTime().truncatedTo(ChronoUnit.MILLIS), true,
                aliveUntil.truncatedTo(ChronoUnit.MILLIS));
        catalog.insertRestore(restore);
        try {
            return tables.insertCreating(request, tableId, "cannot restore into table '").description(Optional.of(restore));
        } catch (RuntimeException e) {
            catalog.forgetRestore(tableId);
            throw e;
        }
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        return catalog.renewRestore(tableId, aliveUntil.truncatedTo(ChronoUnit.MILLIS));
    }

    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        Optional<CatalogRow> row = catalog.find(accountId, tableName)
                .filter(r -> r.tableId().equals(tableId) && r.status() == TableStatus.CREATING);
        if (row.isEmpty() || catalog.restore(tableId).filter(RestoreRecord::inProgress).isEmpty()
                || !recordCounts(row.get()) || !catalog.activate(row.get())) {
            return false;
        }
        catalog.endRestore(tableId);
        return true;
    }

    /**
     * Records the restored table's counts before it turns ACTIVE (nothing else writes to it while it
     * restores), so its first ACTIVE description carries them instead of 0 until the next statistics pass.
     */
    private boolean recordCounts(CatalogRow row) {
        catalog.recordStatistics(row.tableId(), tables.count(row));
        return true;
    }

    /**
     * Every restore in progress whose table's row is still CREATING, as RESTORING. On the way it finishes
     * a completion cut short (the table ACTIVE, its restore still in progress) and forgets a restore row
     * whose table row never came (its begin died in between) once its stamp has passed.
     */
    @Override
    public List<PendingTransition> restoringTables() {
        List<PendingTransition> out = new ArrayList<>();
        Instant now = config.time().now();
        for (RestoreRecord restore : catalog.restoresInProgress()) {
            Optional<CatalogRow> row = catalog.find(restore.accountId(), restore.tableName())
                    .filter(r -> r.tableId().equals(restore.tableId()));
            if (row.isPresent() && row.get().status() == TableStatus.CREATING) {
                out.add(new PendingTransition(restore.accountId(), restore.tableName(),
                        new TableState.Restoring(restore.aliveUntil())));
            } else if (row.isPresent()) {
                catalog.endRestore(restore.tableId());
            } else if (restore.aliveUntil().isBefore(now)) {
                catalog.forgetRestore(restore.tableId());
            }
        }
        return out;
    }
}

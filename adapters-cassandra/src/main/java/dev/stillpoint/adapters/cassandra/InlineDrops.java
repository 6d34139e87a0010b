package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.lifecycle.InlineDropAttempt;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteTable's storage steps on Cassandra, driven by the shared {@code TableDeletion} with a zero
 * delay: synchronous, never DELETING [C2]. Cassandra has no relation locks and a DROP never waits for
 * readers, so the probe answers "free"; every data table is dropped, then the row is removed
 * (conditional on the table id). A drop that fails surfaces as the mapped error (Transient for a
 * timeout) with the row still ACTIVE, and a retry of the DeleteTable finishes the job.
 */
final class InlineDrops implements TableDropPort {

    private static final Logger LOG = LoggerFactory.getLogger(InlineDrops.class);

    private final Cql cql;
    private final CatalogStore catalog;
    private final CassandraConfig config;

    InlineDrops(Cql cql, CatalogStore catalog, CassandraConfig config) {
        this.cql = cql;
        this.catalog = catalog;
        this.config = config;
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        CatalogRow row = catalog.find(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
        Optional<RestoreRecord> restore = catalog.restore(row.tableId());
        TableRecord record = new TableRecord(row.description(restore),
                state(row, restore, config.time().now(), config.staleCreatingAfter()));
        return new InlineDropAttempt(record, () -> {
            for (String table : row.dataTables()) {
                cql.ddl("dropping " + table + " of table '" + row.tableName() + "'", "DROP TABLE IF EXISTS " + table);
            }
        }, () -> {
            if (!catalog.remove(row)) {
                LOG.debug("the catalog row of '{}' was removed by a concurrent DeleteTable", row.tableName());
            }
            catalog.forgetStatistics(row.tableId());
            if (restore.isPresent()) {
                catalog.forgetRestore(row.tableId());
            }
        });
    }

    /**
     * The row's lifecycle state: a CREATING row whose restore is in progress is RESTORING, its stamp from the
     * restore [E5]; any other CREATING row whose creator died long ago counts as ACTIVE, so it can be deleted.
     */
    static TableState state(CatalogRow row, Optional<RestoreRecord> restore, Instant now, Duration staleAfter) {
        if (row.status() != TableStatus.CREATING) {
            return new TableState.Active();
        }
        Optional<RestoreRecord> running = restore.filter(r -> r.inProgress() && r.tableId().equals(row.tableId()));
        if (running.isPresent()) {
            return new TableState.Restoring(running.get().aliveUntil());
        }
        return row.createdAt().plus(staleAfter).isBefore(now) ? new TableState.Active()
                : new TableState.Creating(row.createdAt());
    }
}

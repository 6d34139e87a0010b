package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.lifecycle.InlineDropAttempt;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Instant;
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
        return new Attempt(row, state(row, config.time().now()));
    }

    /** A CREATING row whose creator died long ago counts as ACTIVE, so it can be deleted. */
    private TableState state(CatalogRow row, Instant now) {
        boolean creating = row.status() == TableStatus.CREATING
                && !row.createdAt().plus(config.staleCreatingAfter()).isBefore(now);
        return creating ? new TableState.Creating(row.createdAt()) : new TableState.Active();
    }

    private final class Attempt extends InlineDropAttempt {
        private final CatalogRow row;
        private final TableState state;

        Attempt(CatalogRow row, TableState state) {
            this.row = row;
            this.state = state;
        }

        @Override
        public TableRecord record() {
            return new TableRecord(row.description(), state);
        }

        @Override
        protected String tableName() {
            return row.tableName();
        }

        @Override
        protected void dropAll() {
            for (String table : row.dataTables()) {
                cql.ddl("dropping " + table + " of table '" + row.tableName() + "'", "DROP TABLE IF EXISTS " + table);
            }
        }

        @Override
        public void removeCatalogRow() {
            if (!catalog.remove(row)) {
                LOG.debug("the catalog row of '{}' was removed by a concurrent DeleteTable", row.tableName());
            }
            catalog.forgetStatistics(row.tableId());
        }
    }
}

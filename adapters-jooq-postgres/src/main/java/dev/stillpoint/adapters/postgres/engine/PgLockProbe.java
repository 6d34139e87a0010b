package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.out.RelationHold;
import dev.stillpoint.sqlcatalog.RowLock;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Who holds what on a table's relations [P10]: the catalog names them, pg_locks on the data database says. */
public final class PgLockProbe implements LockProbe {

    private final Transactions tx;

    public PgLockProbe(Transactions tx) {
        this.tx = tx;
    }

    @Override
    public List<RelationHold> holders(String accountId, String tableName) {
        CatalogRows.Loaded loaded = tx.read("reading table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName, RowLock.NONE))
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        try (Connection data = tx.pools().data()) {
            return LockQueries.holders(data, loaded.relations());
        } catch (SQLException e) {
            throw PgFailures.map("probing the locks on table '" + tableName + "'", e);
        }
    }
}

package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.PendingTransition;
import java.time.Instant;
import java.util.List;

/**
 * A fake catalog's restore side when it has none: the restore path is tested on the real databases
 * [E4, E5], so a restore here is a test's mistake and says so, and nothing is ever restoring.
 */
public interface NoRestores extends ControlPlaneStore {

    @Override
    default TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        throw new UnsupportedOperationException("this fake catalog does not restore");
    }

    @Override
    default boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        throw new UnsupportedOperationException("this fake catalog does not restore");
    }

    @Override
    default boolean completeRestore(String accountId, String tableName, String tableId) {
        throw new UnsupportedOperationException("this fake catalog does not restore");
    }

    @Override
    default List<PendingTransition> restoringTables() {
        return List.of();
    }
}

package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;

/**
 * A secondary index as the catalog row records it: its definition, its build state (global
 * indexes only: a local one is built with its table) and the index table that holds its entries.
 *
 * @param global      a global (true) or local (false) secondary index
 * @param backfilling still being filled from the base items (a global index added by UpdateTable)
 * @param relation    the index table's name in the account's keyspace ({@link DataNames#newIndexTable})
 */
record IndexDef(String name, boolean global, KeySchema keySchema, Projection projection, IndexStatus status,
                boolean backfilling, String relation) {

    static IndexDef of(GlobalSecondaryIndex gsi, IndexStatus status, boolean backfilling, String relation) {
        return new IndexDef(gsi.name(), true, gsi.keySchema(), gsi.projection(), status, backfilling, relation);
    }

    static IndexDef of(LocalSecondaryIndex lsi, String relation) {
        return new IndexDef(lsi.name(), false, lsi.keySchema(), lsi.projection(), IndexStatus.ACTIVE, false, relation);
    }

    IndexDef withStatus(IndexStatus newStatus, boolean nowBackfilling) {
        return new IndexDef(name, global, keySchema, projection, newStatus, nowBackfilling, relation);
    }

    GlobalSecondaryIndex toGsi() {
        return new GlobalSecondaryIndex(name, keySchema, projection, status, backfilling, 0, 0);
    }

    LocalSecondaryIndex toLsi() {
        return LocalSecondaryIndex.of(name, keySchema, projection);
    }
}

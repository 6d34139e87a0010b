package dev.stillpoint.core;

import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.RestoreStore;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableCreator;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableStatistics;
import java.util.Objects;
import java.util.Optional;

/**
 * The driven ports a backend without a control plane [C2] hands its {@link InlineStorageCore}: a
 * creator whose tables are ACTIVE when CreateTable returns, drops that complete inline, and no
 * control-plane store, since nothing is ever due later but the recount and the sweep of dead restores.
 *
 * @param catalog    descriptions, table names and UpdateTable adding a GSI
 * @param creator    CreateTable, ACTIVE when it returns
 * @param items      the units of item work the core's write sequence runs in, and item reads
 * @param drops      where DeleteTable's drops run, inline
 * @param restores   the restore rows: a restore's table stays CREATING until it completes [E4]
 * @param statistics ItemCount and TableSizeBytes recounts
 * @param bulkLoads  the backend's bulk path for restores [B1], or empty: restores then write through {@code items}
 */
public record InlineCorePorts(TableCatalog catalog, TableCreator creator, ItemStorage items, TableDropPort drops,
                              RestoreStore restores, TableStatistics statistics, Optional<BulkLoads> bulkLoads) {

    /**
     * Requires every port.
     *
     * @param catalog    descriptions, table names and UpdateTable adding a GSI
     * @param creator    CreateTable
     * @param items      units of item work and item reads
     * @param drops      inline drops
     * @param restores   the restore rows
     * @param statistics the recounts
     * @param bulkLoads  the bulk path for restores, or empty
     */
    public InlineCorePorts {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(creator, "creator");
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(drops, "drops");
        Objects.requireNonNull(restores, "restores");
        Objects.requireNonNull(statistics, "statistics");
        Objects.requireNonNull(bulkLoads, "bulkLoads");
    }

    /**
     * The ports without a bulk path: restores write through the units of item work.
     *
     * @param catalog    descriptions, table names and UpdateTable adding a GSI
     * @param creator    CreateTable
     * @param items      units of item work and item reads
     * @param drops      inline drops
     * @param restores   the restore rows
     * @param statistics the recounts
     */
    public InlineCorePorts(TableCatalog catalog, TableCreator creator, ItemStorage items, TableDropPort drops,
                           RestoreStore restores, TableStatistics statistics) {
        this(catalog, creator, items, drops, restores, statistics, Optional.empty());
    }

    /**
     * These ports with {@code bulk} as the restores' bulk path [B1].
     *
     * @param bulk the backend's bulk loads
     * @return the ports with it
     */
    public InlineCorePorts withBulkLoads(BulkLoads bulk) {
        return new InlineCorePorts(catalog, creator, items, drops, restores, statistics, Optional.of(bulk));
    }
}

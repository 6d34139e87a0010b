package dev.stillpoint.core;

import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableStatistics;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The driven ports a backend hands its {@link ControlPlane}: everything the core needs to run
 * CreateTable, DeleteTable, the control-plane pass and the table and item operations over it.
 *
 * @param store the catalog rows and their lifecycle states (CreateTable, activation, pending transitions)
 * @param drops where DeleteTable's drop attempts begin
 * @param deletionDelay the control-plane delay DeleteTable decides with; a backend whose drops never wait
 *     behind a reader passes {@code () -> Duration.ZERO}, so DeleteTable is always synchronous [C2]
 * @param catalog descriptions, table names and UpdateTable adding a GSI
 * @param items the units of item work the core's write sequence runs in, and item reads
 * @param statistics ItemCount and TableSizeBytes, recounted on the first pass and every few minutes after
 * @param chores the backend's extra work on every pass, in order (may be empty)
 * @param restoreIdleLimit how long a restore may give no sign of life before it is taken for dead [E5]
 * @param bulkLoads the backend's bulk path for restores [B1], or empty: restores then write through {@code items}
 */
public record ControlPlanePorts(ControlPlaneStore store, TableDropPort drops, Supplier<Duration> deletionDelay,
                                TableCatalog catalog, ItemStorage items, TableStatistics statistics,
                                List<PassChore> chores, RestoreIdleLimit restoreIdleLimit,
                                Optional<BulkLoads> bulkLoads) {

    /**
     * Requires every part; the chores are copied.
     *
     * @param store         the catalog rows and their lifecycle states
     * @param drops         where DeleteTable's drop attempts begin
     * @param deletionDelay the control-plane delay DeleteTable decides with
     * @param catalog       descriptions, table names and UpdateTable adding a GSI
     * @param items         put, get and delete of an item with its index entries
     * @param statistics    ItemCount and TableSizeBytes recounts
     * @param chores        the backend's extra work on every pass, in order
     * @param restoreIdleLimit how long a restore may give no sign of life
     * @param bulkLoads     the backend's bulk path for restores, or empty
     */
    public ControlPlanePorts {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(drops, "drops");
        Objects.requireNonNull(deletionDelay, "deletionDelay");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(statistics, "statistics");
        chores = List.copyOf(chores);
        Objects.requireNonNull(restoreIdleLimit, "restoreIdleLimit");
        Objects.requireNonNull(bulkLoads, "bulkLoads");
    }

    /**
     * The ports without a bulk path: restores write through the units of item work.
     *
     * @param store         the catalog rows and their lifecycle states
     * @param drops         where DeleteTable's drop attempts begin
     * @param deletionDelay the control-plane delay DeleteTable decides with
     * @param catalog       descriptions, table names and UpdateTable adding a GSI
     * @param items         put, get and delete of an item with its index entries
     * @param statistics    ItemCount and TableSizeBytes recounts
     * @param chores        the backend's extra work on every pass, in order
     * @param restoreIdleLimit how long a restore may give no sign of life
     */
    public ControlPlanePorts(ControlPlaneStore store, TableDropPort drops, Supplier<Duration> deletionDelay,
                             TableCatalog catalog, ItemStorage items, TableStatistics statistics, List<PassChore> chores,
                             RestoreIdleLimit restoreIdleLimit) {
        this(store, drops, deletionDelay, catalog, items, statistics, chores, restoreIdleLimit, Optional.empty());
    }

    /**
     * These ports with {@code bulk} as the restores' bulk path [B1].
     *
     * @param bulk the backend's bulk loads
     * @return a copy with the bulk path
     */
    public ControlPlanePorts withBulkLoads(BulkLoads bulk) {
        return new ControlPlanePorts(store, drops, deletionDelay, catalog, items, statistics, chores, restoreIdleLimit,
                Optional.of(bulk));
    }

    /**
     * The ports with the default restore idle limit (60 s).
     *
     * @param store         the catalog rows and their lifecycle states
     * @param drops         where DeleteTable's drop attempts begin
     * @param deletionDelay the control-plane delay DeleteTable decides with
     * @param catalog       descriptions, table names and UpdateTable adding a GSI
     * @param items         put, get and delete of an item with its index entries
     * @param statistics    ItemCount and TableSizeBytes recounts
     * @param chores        the backend's extra work on every pass, in order
     */
    public ControlPlanePorts(ControlPlaneStore store, TableDropPort drops, Supplier<Duration> deletionDelay,
                             TableCatalog catalog, ItemStorage items, TableStatistics statistics, List<PassChore> chores) {
        this(store, drops, deletionDelay, catalog, items, statistics, chores, RestoreIdleLimit.DEFAULT, Optional.empty());
    }
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Items as a backend keeps them. The core runs every write's sequence (stamp or load the definition,
 * apply DynamoDB's rules, upsert and delete, loop over a batch) through the narrow steps of an
 * {@link ItemUnit}; this port only opens the unit, stores, and reads.
 */
public interface ItemStorage {

    /** One unit's work, given the unit; may be run again from its start (see {@link #inUnit}). */
    @FunctionalInterface
    interface UnitWork<T> {

        /**
         * Does the work.
         *
         * @param unit the unit of work
         * @return the work's result
         */
        T run(ItemUnit unit);
    }

    /**
     * Runs {@code work} in one unit of work: committed when it returns, rolled back when it throws (the
     * exception reaches the caller as it is, or mapped to a {@code StorageException} when the backend's
     * own failed). A backend may run {@code work} again from its start when its transaction must be
     * retried (MongoDB's transient transaction errors), so the work keeps no state across runs.
     *
     * @param doing what the work is, for error messages
     * @param work the work
     * @param <T> the work's result type
     * @return the work's result
     */
    <T> T inUnit(String doing, UnitWork<T> work);

    /**
     * The optimistic path: applies {@code writes} under {@code tables} as they were loaded, without
     * reading any definition, committing only if every table's stamp is still the one it was loaded
     * under. Answers false, having written nothing, when a stamp changed, a relation of a stale definition
     * is gone, or the backend has no such path (the default); the core then takes {@link #inUnit}. A lost
     * connection is thrown, as any write's would be.
     *
     * @param doing what the work is, for error messages
     * @param tables every table the writes touch, as loaded before (each with a stamp)
     * @param writes the upserts and deletes, given a unit that only writes
     * @return whether the writes were committed
     */
    default boolean onKnownDefinitions(String doing, List<StorageTable> tables, Consumer<ItemUnit> writes) {
        return false;
    }

    /**
     * Whether catalog rows carry a {@link CatalogStamp}, so that a loaded definition can be kept and
     * checked by a stamp read instead of loaded again. False by default: the core then loads the definition
     * in every unit of work.
     *
     * @return whether {@link ItemUnit#stamps} may be called
     */
    default boolean versionedCatalog() {
        return false;
    }

    /**
     * The table as item reads need it, read outside any unit of work.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the table, or empty when it has no catalog row
     */
    Optional<StorageTable> table(String accountId, String tableName);

    /**
     * The item under {@code key}, as stored.
     *
     * @param table the table, as this backend loaded it
     * @param key the item's primary key
     * @return the item, or empty when there is none under that key
     */
    Optional<Item> read(StorageTable table, Key key);
}

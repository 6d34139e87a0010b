package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;

/**
 * The steps of adding a GSI to a table with items, in the order the core takes them: load the table,
 * record the index CREATING under the definition the core's rules answered, scan the base items and
 * write the entries the core computed, mark the index ACTIVE. The core decides which items the index
 * holds and under which key; an implementation only stores. Where the build is {@link #atomic()} (one
 * transaction holding the table's catalog row against every other change), the index and all its entries
 * become visible together or not at all; where it is not, each step is applied when it is called and a
 * later attempt finishes an index an earlier one left CREATING.
 */
public interface IndexBuild {

    /** One build's work, given the build; runs once. */
    @FunctionalInterface
    interface BuildWork<T> {

        /**
         * Does the work.
         *
         * @param build the build's steps
         * @return the work's result
         */
        T run(IndexBuild build);
    }

    /**
     * Whether the steps commit together (SQLite, PostgreSQL). False on a backend without such a
     * transaction (MongoDB, Cassandra): a failure leaves the index recorded CREATING with some entries.
     *
     * @return whether the build is all or nothing
     */
    boolean atomic();

    /**
     * Loads the table's definition for a change to it (on an atomic build, the catalog row is held
     * until the build ends, so no other change or item write commits in between).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the table, or empty when it has no catalog row
     */
    Optional<StorageTable> load(String accountId, String tableName);

    /**
     * Records {@code after} as the table's definition, with index {@code indexName} CREATING and
     * backfilling, and creates the index's relation (before the catalog names it, where the steps are
     * not atomic, so a writer that sees the index can write to it).
     *
     * @param table the table as {@link #load} answered
     * @param after the new definition, holding the index
     * @param indexName the index added
     * @return the table as recorded, with the index; empty, having recorded nothing, when the table's
     *     definition changed since it was loaded (only where the build is not atomic): load it again
     */
    Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName);

    /**
     * The table whose loaded definition already holds {@code indexName} CREATING (an earlier attempt
     * recorded it and failed during its backfill), ready for the backfill to be finished. Only called
     * where the build is not atomic; an atomic build never leaves such an index.
     *
     * @param table the table as {@link #load} answered
     * @param indexName the unfinished index
     * @return the table, as {@link #write} needs it
     */
    default StorageTable resume(StorageTable table, String indexName) {
        throw new UnsupportedOperationException("an atomic index build leaves no index unfinished");
    }

    /**
     * Every base item of the table, in pages.
     *
     * @param table the table as {@link #record} or {@link #resume} answered
     * @return the scan, to be closed by the caller
     */
    ItemScan scan(StorageTable table);

    /**
     * Writes the index entries of one page, each holding its base item's stored text (or the projection
     * the backend keeps). Writing an entry that is already there is no error where the build is not
     * atomic (a resumed backfill writes it again).
     *
     * @param table the table as {@link #record} or {@link #resume} answered
     * @param indexName the index
     * @param entries the entries, possibly none
     */
    void write(StorageTable table, String indexName, List<BackfillEntry> entries);

    /**
     * Marks the index ACTIVE and no longer backfilling.
     *
     * @param table the table as {@link #record} or {@link #resume} answered
     * @param indexName the index
     */
    void activate(StorageTable table, String indexName);
}

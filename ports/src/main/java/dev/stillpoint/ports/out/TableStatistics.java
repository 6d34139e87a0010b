package dev.stillpoint.ports.out;

import java.util.List;

/**
 * The steps of recounting the running counts DescribeTable reports, ItemCount and TableSizeBytes:
 * approximate, as DynamoDB's are (DynamoDB refreshes them about every six hours; the core recounts every
 * few minutes). The core lists the ACTIVE tables, counts each and records the counts that changed.
 */
public interface TableStatistics {

    /**
     * A table's item count and the bytes its stored items take.
     *
     * @param items the number of items
     * @param bytes the UTF-8 bytes of the items as stored (or the backend's own measure of them)
     */
    record Counts(long items, long bytes) {
    }

    /**
     * An ACTIVE table as a recount sees it: the counts its catalog holds; the implementing class keeps
     * how to reach the table's items, which only its own backend reads.
     */
    interface Counted {

        /**
         * The counts as the catalog recorded them when the table was listed.
         *
         * @return the recorded counts
         */
        Counts recorded();
    }

    /**
     * Every ACTIVE table with its recorded counts.
     *
     * @return the tables
     */
    List<Counted> activeTables();

    /**
     * Counts the table's items and their bytes now.
     *
     * @param table a table as {@link #activeTables} listed it
     * @return the counts
     */
    Counts count(Counted table);

    /**
     * Records {@code counts} as the table's counts.
     *
     * @param table a table as {@link #activeTables} listed it
     * @param counts the new counts
     */
    void record(Counted table, Counts counts);
}

package dev.stillpoint.ports.out;

import java.util.List;
import java.util.Map;

/**
 * The steps of recounting the running counts DescribeTable reports, ItemCount and TableSizeBytes, and
 * each secondary index's ItemCount and IndexSizeBytes:
 * approximate, as DynamoDB's are (DynamoDB refreshes them about every six hours; the core recounts every
 * few minutes). The core lists the ACTIVE tables, counts each and records the counts that changed.
 */
public interface TableStatistics {

    /**
     * A table's item count and the bytes its stored items take, with the same two figures for each of its
     * secondary indexes (DescribeTable's ItemCount and IndexSizeBytes of every GSI and LSI).
     *
     * @param items the number of items (of an index: its entries; a sparse index holds only the items that
     *     have its key attributes)
     * @param bytes the UTF-8 bytes of the items as stored (or the backend's own measure of them)
     * @param indexes each secondary index's counts by index name; empty for an index's own counts
     */
    record Counts(long items, long bytes, Map<String, Counts> indexes) {

        /**
         * Copies {@code indexes}.
         *
         * @param items the number of items
         * @param bytes the bytes of the items as stored
         * @param indexes each secondary index's counts by index name
         */
        public Counts {
            indexes = Map.copyOf(indexes);
        }

        /**
         * Counts without index figures: of an index, or of a table with no secondary index.
         *
         * @param items the number of items
         * @param bytes the bytes of the items as stored
         */
        public Counts(long items, long bytes) {
            this(items, bytes, Map.of());
        }
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

package dev.stillpoint.ports.out;

/**
 * The running counts DescribeTable reports, ItemCount and TableSizeBytes: approximate, as DynamoDB's
 * are (DynamoDB refreshes them about every six hours; the core asks for a recount every few minutes).
 */
public interface TableStatistics {

    /**
     * Counts the items of every ACTIVE table and the bytes their stored items take, and records both
     * in the catalog where they changed (a table whose counts did not change is not written).
     */
    void recount();
}

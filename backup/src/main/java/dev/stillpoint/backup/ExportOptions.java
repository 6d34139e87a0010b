package dev.stillpoint.backup;

/**
 * How an export writes.
 *
 * @param format           the layout [E2]
 * @param checkItems       whether every item is checked before it is written [E1]; false only to measure
 *                         what the check costs
 * @param itemsPerDataFile DynamoDB's layout: items per gzipped data file before the next begins (DynamoDB
 *                         writes one or more per partition); ignored by ours, which writes one file
 */
public record ExportOptions(ExportFormat format, boolean checkItems, int itemsPerDataFile) {

    /** Items per data file of DynamoDB's layout unless told otherwise. */
    public static final int DEFAULT_ITEMS_PER_DATA_FILE = 500_000;

    /** Refuses a missing format and a file size below one item. */
    public ExportOptions {
        if (format == null) {
            throw new IllegalArgumentException("an export format is required");
        }
        if (itemsPerDataFile < 1) {
            throw new IllegalArgumentException("itemsPerDataFile must be at least 1, got " + itemsPerDataFile);
        }
    }

    /**
     * Checked items, default file size.
     *
     * @param format the layout
     * @return the options
     */
    public static ExportOptions of(ExportFormat format) {
        return new ExportOptions(format, true, DEFAULT_ITEMS_PER_DATA_FILE);
    }
}

package dev.stillpoint.backup;

import dev.stillpoint.domain.error.StorageException;

/**
 * How an export writes.
 *
 * @param format           the layout [E2]
 * @param checkItems       whether every item is checked before it is written [E1]; false only to measure
 *                         what the check costs
 * @param itemsPerDataFile DynamoDB's layout: items per gzipped data file before the next begins (DynamoDB
 *                         writes one or more per partition); ignored by ours, which writes one file per segment
 * @param segments         {@code export -j N} [B3]: the snapshot is read as this many segments of one instant,
 *                         each written to its own data file(s) by its own thread; 1 (the default) is one stream
 *                         and exactly the layout of an export before segments existed
 */
public record ExportOptions(ExportFormat format, boolean checkItems, int itemsPerDataFile, int segments) {

    /** Items per data file of DynamoDB's layout unless told otherwise. */
    public static final int DEFAULT_ITEMS_PER_DATA_FILE = 500_000;
    /**
     * The most segments an export reads at once: each holds a snapshot permit, a connection where the backend
     * shares the instant across connections, and two threads; more than this buys nothing on any machine the
     * pools are sized for.
     */
    public static final int MAX_SEGMENTS = 64;

    /** Refuses a missing format, a file size below one item and a segment count outside 1..{@value #MAX_SEGMENTS}. */
    public ExportOptions {
        if (format == null) {
            throw new IllegalArgumentException("an export format is required");
        }
        if (itemsPerDataFile < 1) {
            throw new IllegalArgumentException("itemsPerDataFile must be at least 1, got " + itemsPerDataFile);
        }
        requireSegments(segments);
    }

    /**
     * One segment: the options as they were before {@code -j} existed.
     *
     * @param format           the layout
     * @param checkItems       whether every item is checked
     * @param itemsPerDataFile DynamoDB's layout: items per data file
     */
    public ExportOptions(ExportFormat format, boolean checkItems, int itemsPerDataFile) {
        this(format, checkItems, itemsPerDataFile, 1);
    }

    /**
     * Checked items, default file size, one segment.
     *
     * @param format the layout
     * @return the options
     */
    public static ExportOptions of(ExportFormat format) {
        return new ExportOptions(format, true, DEFAULT_ITEMS_PER_DATA_FILE, 1);
    }

    /**
     * The same options reading {@code segments} segments [B3].
     *
     * @param segments 1..{@value #MAX_SEGMENTS}
     * @return the options
     * @throws StorageException VALIDATION naming the value when it is outside 1..{@value #MAX_SEGMENTS}
     */
    public ExportOptions withSegments(int segments) {
        return new ExportOptions(format, checkItems, itemsPerDataFile, segments);
    }

    /**
     * Checks a segment count before anything is opened or created (the command line's {@code -j} too).
     *
     * @param segments the count asked for
     * @return {@code segments}
     * @throws StorageException VALIDATION naming the value when it is outside 1..{@value #MAX_SEGMENTS}
     */
    public static int requireSegments(int segments) {
        if (segments < 1 || segments > MAX_SEGMENTS) {
            throw StorageException.validation("the number of segments (-j) must be 1.." + MAX_SEGMENTS + ", got "
                    + segments);
        }
        return segments;
    }
}

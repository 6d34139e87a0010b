package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An export directory {@link ExportReader#check} has read in full and found sound [E3]: every checksum,
 * count and line. It can then be read again, item by item, for loading ({@link #load}); that second
 * reading checks everything again, so a file changed in between fails the load instead of loading
 * something unchecked.
 */
public final class CheckedExport {

    /**
     * A batch ends once its items' sizes reach this many bytes, even short of its item count: 500 items of the
     * largest size are 200 MB, and a restore of 395 KB items ran out of a 64 MiB heap in its first batch.
     */
    public static final long BATCH_BYTES = 4L << 20;

    private final ExportFormat format;
    private final Path dir;
    private final long itemCount;
    private final Optional<JsonNode> table;
    private final Optional<String> sourceTableArn;
    private final Optional<java.time.Instant> exportTime;
    private final ExportKey key;
    private final ExportReader.Scan scan;
    /** Each data file's own reading, in {@link #files} order: what {@code restore -j N} reads in parallel. */
    private final List<ExportReader.Scan> fileScans;
    private final List<Path> files;
    private final Optional<String> snapshotMarker;
    /** The places of the lines a later line with the same key replaces (LAST_WINS), sorted. */
    private long[] collapsed = new long[0];

    CheckedExport(ExportFormat format, Path dir, long itemCount, Optional<JsonNode> table,
                  Optional<String> sourceTableArn, Optional<java.time.Instant> exportTime, ExportKey key,
                  ExportReader.Scan scan, List<ExportReader.Scan> fileScans, List<Path> files,
                  Optional<String> snapshotMarker) {
        if (fileScans.size() != files.size()) {
            throw new IllegalArgumentException(fileScans.size() + " file readings for " + files.size() + " files");
        }
        this.fileScans = List.copyOf(fileScans);
        this.snapshotMarker = snapshotMarker;
        this.exportTime = exportTime;
        this.files = List.copyOf(files);
        this.format = format;
        this.dir = dir;
        this.itemCount = itemCount;
        this.table = table;
        this.sourceTableArn = sourceTableArn;
        this.key = key;
        this.scan = scan;
    }

    /** @return the layout found */
    public ExportFormat format() {
        return format;
    }

    /** @return the directory read */
    public Path dir() {
        return dir;
    }

    /**
     * The items a restore of this export puts into the table: the manifest's count (which every file agreed
     * with) less the lines a later line with the same key replaced ({@link #collapsedLines}).
     *
     * @return the items the new table will hold
     */
    public long itemCount() {
        return itemCount - collapsed.length;
    }

    /**
     * The lines not loaded because a later line holds the same key (with {@code LAST_WINS}; none otherwise).
     *
     * @return how many lines collapsed into a later one
     */
    public long collapsedLines() {
        return collapsed.length;
    }

    /**
     * The full check's one reading [E3, V4]: every line of every file, and every key against every other.
     * Two lines with one key refuse the input naming both, or (LAST_WINS) the earlier is marked not to load.
     */
    void checkAll(ExportReader.Duplicates duplicates, ExportReader.CheckListener listener) {
        try (KeyDigests keys = new KeyDigests(key.schema())) {
            long[] read = {0};
            scan.run((item, place) -> {
                keys.add(item, place);
                listener.checked(++read[0], itemCount);
            });
            KeyDigests.Duplicate[] first = {null};
            long[] earlier = keys.collapsed(d -> {
                if (first[0] == null || d.second() < first[0].second()) {
                    first[0] = d;
                }
            });
            if (first[0] != null && duplicates == ExportReader.Duplicates.REFUSE) {
                KeyDigests.Duplicate d = first[0];
                Path a = files.get(KeyDigests.file(d.first()));
                Path b = files.get(KeyDigests.file(d.second()));
                throw new BackupFailure(BackupFailure.Problem.ITEM, b, KeyDigests.line(d.second()), a + " line "
                        + KeyDigests.line(d.first()) + " and " + (a.equals(b) ? "line " : b + " line ")
                        + KeyDigests.line(d.second()) + " hold one key (compared as DynamoDB compares keys: a number"
                        + " by its value), and a table holds one item per key; " + earlier.length + " line(s) in all"
                        + " repeat an earlier key (--duplicates last-wins loads the last of each)", null);
            }
            collapsed = earlier;
        }
    }

    /**
     * The export's data files, in order: a restore loads at most this many in parallel.
     *
     * @return how many data files the manifest lists
     */
    public int dataFiles() {
        return files.size();
    }

    /** @return the ARN of the exported table, when the export names one */
    public Optional<String> sourceTableArn() {
        return sourceTableArn;
    }

    /**
     * The instant the exported data was read at, as the manifest says: our layout's
     * {@code snapshot.openedAt}, DynamoDB's {@code exportTime}. A restore of this export is a restore to
     * that point in time, so it is the restored table's RestoreDateTime (see {@link TableRestore}).
     *
     * @return the export's instant, or empty when the manifest does not give one
     */
    public Optional<java.time.Instant> exportTime() {
        return exportTime;
    }

    /**
     * The marker [L5] of the snapshot the export read, as its manifest names it: ours in
     * {@code snapshot.marker}, DynamoDB's layout written here in {@code stillpointSnapshot.marker} (an
     * export written by DynamoDB names none). A restore records it with the new table, so an incremental
     * export starting there can be applied later [I3].
     *
     * @return the export's marker, or empty
     */
    public Optional<String> snapshotMarker() {
        return snapshotMarker;
    }

    /** @return the key every item was checked against */
    public ExportKey key() {
        return key;
    }

    /**
     * The CreateTable request of a new table for this export [E4]: the exported definition (key schema,
     * attribute definitions, GSIs, LSIs, stream specification) for our layout; the checked key alone for
     * DynamoDB's, which carries no definition.
     *
     * @param accountId the new table's account
     * @param tableName the new table's name
     * @return the request
     */
    public CreateTableRequest definition(String accountId, String tableName) {
        if (table.isPresent()) {
            return DescriptionJson.definition(table.get(), accountId, tableName);
        }
        return new CreateTableRequest(accountId, tableName, key.schema(), key.definitions(), List.of(), List.of(),
                Optional.empty());
    }

    /**
     * Reads every item again, in file order, handing them over in batches of at most {@code batchSize}.
     *
     * @param batchSize items per batch, at least 1 (fewer where they reach {@link #BATCH_BYTES})
     * @param batches   told each batch (a new list each time)
     * @throws BackupFailure when a file no longer matches what was checked
     */
    public void load(int batchSize, Consumer<List<Item>> batches) {
        load(batchSize, 1, batches);
    }

    /**
     * Reads every item again as {@link #load(int, Consumer)} does, the data files on up to {@code lanes} threads
     * at once ({@code restore -j N}) [B3]: each file is read, checked again (its checksum and count) and handed
     * over in batches by one thread, so {@code batches} is told from several threads at once and must take that;
     * the order of batches of different files is not kept. The lines a later line replaces (LAST_WINS) are left
     * out as in one reading: the full check decided them across all files. The first failure of any file stops
     * the others and is thrown once every thread has ended.
     *
     * @param batchSize items per batch, at least 1 (fewer where they reach {@link #BATCH_BYTES})
     * @param lanes     threads, at least 1; more than the files are not started; 1 is {@link #load(int, Consumer)}
     * @param batches   told each batch (a new list each time), from the lanes' threads
     * @throws BackupFailure when a file no longer matches what was checked
     */
    public void load(int batchSize, int lanes, Consumer<List<Item>> batches) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be at least 1, got " + lanes);
        }
        int threads = Math.min(lanes, fileScans.size());
        if (threads > 1) {
            FileLanes.run(fileScans.size(), threads,
                    shared -> file -> inBatches(fileScans.get(file), batchSize, batches, shared::requireGoing));
            return;
        }
        inBatches(scan, batchSize, batches, () -> { });
    }

    /**
     * Hands {@code reading}'s items to {@code batches} in lists of {@code batchSize} items, or fewer once their
     * sizes reach {@link #BATCH_BYTES}, leaving out the lines a later line replaces [V4]; {@code beforeEach} runs
     * first for every line (a lane's check that the others go on).
     */
    private void inBatches(ExportReader.Scan reading, int batchSize, Consumer<List<Item>> batches, Runnable beforeEach) {
        java.util.ArrayList<Item> batch = new java.util.ArrayList<>(Math.min(batchSize, 1024));
        long[] bytes = {0};
        reading.run((item, place) -> {
            beforeEach.run();
            if (collapsed.length > 0 && java.util.Arrays.binarySearch(collapsed, place) >= 0) {
                return; // a later line holds this key and wins [V4]
            }
            batch.add(item);
            bytes[0] += item.sizeInBytes();
            if (batch.size() == batchSize || bytes[0] >= BATCH_BYTES) {
                batches.accept(List.copyOf(batch));
                batch.clear();
                bytes[0] = 0;
            }
        });
        if (!batch.isEmpty()) {
            batches.accept(List.copyOf(batch));
        }
    }
}

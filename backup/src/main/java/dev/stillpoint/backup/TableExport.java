package dev.stillpoint.backup;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Writes one table snapshot to a directory, on any backend with snapshots [E2], in one of two layouts
 * ({@link ExportFormat}): each item's stored DynamoDB JSON exactly as the snapshot yields it, never
 * decoded, one per line. Memory stays bounded by the snapshot's page, whatever the table's size [S7].
 *
 * <p>Every file is written under a temporary name in the output directory ({@link ExportTemps}) and
 * renamed at the end, the manifest that makes the export complete last (any old one removed first),
 * so a manifest present always describes the data beside it and a failed export leaves none.
 *
 * <p>Every item is checked before it is written ({@link ItemCheck}) [E1]: the first that fails ends the
 * export ({@link BackupFailure.Problem#CORRUPT_ITEM}) naming it, no manifest written, temp files removed.
 *
 * <p>The calling thread reads the snapshot; checking runs on a thread per core and writing and digesting
 * on one more, fed through a bounded {@link HandOff}, so they overlap the reading and each other: the check
 * (a decode and PutItem's rules per item) costs more CPU than reading the item.
 */
public final class TableExport {
    /** Our layout's data file. */
    public static final String DATA_FILE = StillpointLayout.DATA_FILE;
    /** Our layout's manifest. */
    public static final String MANIFEST_FILE = StillpointLayout.MANIFEST_FILE;
    /** Our layout's format and version, the manifest's {@code format}. */
    public static final String FORMAT = StillpointLayout.FORMAT;

    private TableExport() {
    }

    /**
     * An export into {@code dir}, in our layout with every item checked until told otherwise; run it with
     * {@link ExportRequest#run(dev.stillpoint.ports.in.Storage, String, String)}, which creates the directory.
     *
     * @param dir the output directory, created when missing
     * @return the request, to refine ({@code .format(ExportFormat.DYNAMODB)}) and run
     */
    public static ExportRequest to(Path dir) {
        return ExportRequest.into(dir);
    }

    /**
     * Checks that {@code dir} is a writable directory holding no export, creating it (and its parents) when
     * missing. A directory that already holds an export of either layout (our {@value StillpointLayout#MANIFEST_FILE},
     * DynamoDB's {@value DynamoDbLayout#SUMMARY}, also under {@code AWSDynamoDB/<ExportId>/}) is refused by
     * name: a second export beside it would leave two manifests, and a restore could not tell which is meant. So is
     * one holding a file of a name an export writes ({@code items.jsonl}, ...), which the export would replace.
     *
     * @param dir the output directory
     * @return {@code dir}
     * @throws BackupFailure OUTPUT when it is not a directory, cannot be created, is not writable or holds an export
     */
    public static Path prepareOutput(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "output path " + dir + " exists and is not a directory", null);
        }
        if (Files.isDirectory(dir)) {
            Path ours = dir.resolve(StillpointLayout.MANIFEST_FILE);
            Optional<Path> theirs;
            try {
                theirs = DynamoDbExportCheck.findSummary(dir);
            } catch (BackupFailure several) {
                theirs = Optional.of(dir.resolve("AWSDynamoDB"));
            }
            Optional<Path> held = Files.exists(ours) ? Optional.of(ours) : theirs;
            if (held.isPresent()) {
                throw new BackupFailure(BackupFailure.Problem.OUTPUT, "output directory " + dir + " already holds an export ("
                        + dir.relativize(held.get()) + "); export into a new or empty directory", null);
            }
            Optional<String> taken;
            try {
                taken = ExportFileNames.firstTaken(dir);
            } catch (IOException e) {
                throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot list output directory " + dir + ": " + reason(e), e);
            }
            if (taken.isPresent()) {
                throw new BackupFailure(BackupFailure.Problem.OUTPUT, "output directory " + dir + " already holds "
                        + taken.get() + ", a name an export gives one of its files: the export would replace it; export"
                        + " into a new or empty directory", null);
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot create output directory " + dir + ": " + reason(e), e);
        }
        if (!Files.isWritable(dir)) {
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "output directory " + dir + " is not writable", null);
        }
        return dir;
    }

    /**
     * Opens a snapshot of {@code table} on {@code engine} and writes it to {@code dir} (prepared by
     * {@link #prepareOutput}).
     *
     * @param engine   the backend's snapshot engine
     * @param account  the account the table belongs to
     * @param table    the table's name
     * @param dir      the output directory
     * @param options  the layout and how to write it
     * @param listener told as items are written
     * @param temps    the export's temporary files, for whoever may abandon it mid-way
     * @return what was written
     * @throws StorageException as the snapshot engine throws it (TableNotFound, LimitExceeded, Unsupported ...)
     * @throws BackupFailure OUTPUT when a file cannot be written, CORRUPT_ITEM for an item that fails the
     *     check, INTERRUPTED when {@code temps} was abandoned
     */
    static ExportResult export(SnapshotEngine engine, String account, String table, Path dir,
                                      ExportOptions options, ExportListener listener, ExportTemps temps) {
        if (options.segments() > 1) {
            return SegmentedExport.export(engine, account, table, dir, options, listener, temps);
        }
        long started = System.nanoTime();
        LayoutWriter writer = null;
        try {
            writer = layout(dir, options, temps);
            Instant openedAt = Instant.now();
            TableDescription description;
            SnapshotInfo info;
            boolean keyOrdered;
            CheckedLines lines;
            HandOff<CheckedLines.Batch> handOff = null;
            try {
                try (TableSnapshot snapshot = engine.openTableSnapshot(account, table, StoredKeys.INCLUDED)) {
                    description = snapshot.description();
                    info = snapshot.info();
                    keyOrdered = snapshot.keyOrdered();
                    listener.opened(info);
                    snapshot.itemCount().ifPresent(listener::counted);
                    lines = new CheckedLines(writer.lane(0), options.checkItems() ? () -> new ItemCheck(description) : null,
                            listener);
                    handOff = new HandOff<>(lines, HandOff.checkersPerLane(1));
                    ItemStream items = snapshot.items();
                    while (items.hasNext() && handOff.add(items.next())) {
                        // The hand-off's threads check and write; they stop this loop when one fails.
                    }
                } // the snapshot is released once read, while the last lines are written and synced
                handOff.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the export was interrupted", e);
            } finally {
                if (handOff != null) {
                    handOff.abandon();
                }
            }
            long count = lines.count();
            listener.finished(count);
            LayoutWriter.Written written = writer.commit(account, description, info, keyOrdered, openedAt);
            return new ExportResult(options.format(), description, info, keyOrdered, count, written.bytes(),
                    written.sha256(), written.dataFiles(), written.manifest(), openedAt,
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot write the export to " + dir + ": " + reason(e), e);
        } catch (ItemCheck.Failed e) {
            throw new BackupFailure(BackupFailure.Problem.CORRUPT_ITEM, e.getMessage() + "; export stopped, no manifest written", e);
        } finally {
            if (writer != null) {
                writer.closeQuietly();
            }
            temps.removeLeftovers();
        }
    }

    /** The layout {@code options} name, with one lane per segment. */
    static LayoutWriter layout(Path dir, ExportOptions options, ExportTemps temps) throws IOException {
        return options.format() == ExportFormat.STILLPOINT
                ? new StillpointLayout(dir, temps, options.segments())
                : new DynamoDbLayout(dir, temps, options.itemsPerDataFile(), options.segments());
    }

    /** Whether {@code json} goes on its line as it is: no line break, no UTF-16 surrogate (see {@link #line}). */
    static boolean plain(String json) {
        int n = json.length();
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (c == '\n' || c == '\r' || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stored text as one line of UTF-8: as it is, except that a lone UTF-16 surrogate (which
     * UTF-8 cannot carry) is written as its JSON escape, which decodes to the same string. A raw
     * line break cannot be put on one line, so it ends the export with an error naming the item.
     *
     * @param json  the stored text
     * @param index the item's position, from 0
     * @return the text to write
     */
    public static String line(String json, long index) {
        int n = json.length();
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (c == '\n' || c == '\r') {
                throw StorageException.internal("stored item " + (index + 1)
                        + " contains a raw line break and cannot be written as one JSON line", null);
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1))) {
                    i++;
                } else {
                    return ItemJson.escapeUnpairedSurrogates(json);
                }
            }
        }
        return json;
    }

    /**
     * A fresh SHA-256 digest.
     *
     * @return the digest
     */
    public static MessageDigest sha256() {
        return digest("SHA-256");
    }

    static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no " + algorithm, e);
        }
    }

    /**
     * The I/O failure in words (the file system's, not a Java class name [R6]).
     *
     * @param e the failure
     * @return its reason in words
     */
    public static String reason(IOException e) {
        String what = e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
                : e instanceof java.nio.file.DirectoryNotEmptyException ? "directory not empty"
                : e instanceof java.nio.file.NotDirectoryException ? "not a directory"
                : e instanceof java.util.zip.ZipException || e instanceof java.io.EOFException ? "damaged or truncated data"
                : "I/O error";
        return e.getMessage() == null ? what : what + ": " + e.getMessage();
    }
}

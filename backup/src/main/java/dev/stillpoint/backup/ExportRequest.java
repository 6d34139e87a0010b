package dev.stillpoint.backup;

import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.out.StorageEvents;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One export, described and then run in one call, as a CreateTable request is built and then sent:
 *
 * <pre>{@code
 * ExportResult result = TableExport.to(dir).format(ExportFormat.DYNAMODB).run(storage, "acct", "orders");
 * }</pre>
 *
 * <p>{@link #run} does what the command line's export does: it creates {@code dir} (and its parents)
 * or refuses one that is not a writable directory or already holds an export (or a file of a name an export writes)
 * ({@link TableExport#prepareOutput}), removes the temporary files an export killed earlier left there
 * ({@link ExportTemps#removeStale}), opens the snapshot, checks and writes every item [E1], and renames
 * the manifest into place last. Immutable: each setter returns a new request.
 *
 * @param dir      the output directory, created when missing
 * @param options  the layout and how it is written; our layout with every item checked by default
 * @param listener told as items are written; {@link ExportListener#NONE} by default
 * @param events   told of the completed export (items, bytes) [X1]; {@link StorageEvents#NONE} by default
 * @param temps    the export's temporary files, for a shutdown hook that may abandon it; empty (the
 *                 default) for a new record on each run
 */
public record ExportRequest(Path dir, ExportOptions options, ExportListener listener, StorageEvents events,
                            Optional<ExportTemps> temps) {

    /**
     * Requires every part.
     *
     * @param dir      the output directory
     * @param options  the layout and how it is written
     * @param listener told as items are written
     * @param events   told of the completed export
     * @param temps    the export's temporary files
     */
    public ExportRequest {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(temps, "temps");
    }

    /**
     * An export into {@code dir} in our layout, every item checked, nothing told.
     *
     * @param dir the output directory, created when missing
     * @return the request
     */
    static ExportRequest into(Path dir) {
        return new ExportRequest(dir, ExportOptions.of(ExportFormat.STILLPOINT), ExportListener.NONE,
                StorageEvents.NONE, Optional.empty());
    }

    /**
     * The same request writing {@code format}'s layout [E2].
     *
     * @param format {@link ExportFormat#STILLPOINT} or {@link ExportFormat#DYNAMODB}
     * @return the request
     */
    public ExportRequest format(ExportFormat format) {
        return new ExportRequest(dir, new ExportOptions(format, options.checkItems(), options.itemsPerDataFile()),
                listener, events, temps);
    }

    /**
     * The same request reading the snapshot as {@code segments} segments of one instant, each written to its own
     * data file(s) by its own thread ({@code export -j N}) [B3]: our layout then lists one data file per segment
     * in its manifest; DynamoDB's writes each segment's items to its own data files. The items written are
     * exactly those of one segment at that instant.
     *
     * @param segments 1..{@value ExportOptions#MAX_SEGMENTS}; 1 is the single stream
     * @return the request
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION naming a count outside 1..{@value
     *     ExportOptions#MAX_SEGMENTS}
     */
    public ExportRequest segments(int segments) {
        return new ExportRequest(dir, options.withSegments(segments), listener, events, temps);
    }

    /**
     * The same request with other options (layout, item check, DynamoDB data file size, segments).
     *
     * @param options how the export writes
     * @return the request
     */
    public ExportRequest options(ExportOptions options) {
        return new ExportRequest(dir, options, listener, events, temps);
    }

    /**
     * The same request telling {@code listener} as items are written (a progress bar).
     *
     * @param listener told on the export's writing thread
     * @return the request
     */
    public ExportRequest listener(ExportListener listener) {
        return new ExportRequest(dir, options, listener, events, temps);
    }

    /**
     * The same request telling {@code events} of the completed export, e.g. the storage's metrics binder.
     *
     * @param events told once the manifest is in place
     * @return the request
     */
    public ExportRequest events(StorageEvents events) {
        return new ExportRequest(dir, options, listener, events, temps);
    }

    /**
     * The same request with the caller's temporary-file record, so its shutdown hook can
     * {@link ExportTemps#abandon()} the export mid-way.
     *
     * @param temps a record not used by another export
     * @return the request
     */
    public ExportRequest temps(ExportTemps temps) {
        return new ExportRequest(dir, options, listener, events, Optional.of(temps));
    }

    /**
     * Exports {@code table} of {@code storage}: see the class comment.
     *
     * @param storage the opened storage
     * @param account the account the table belongs to
     * @param table   the table's name
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException as the snapshot engine throws it (TableNotFound,
     *     LimitExceeded, Unsupported ...); Unsupported before anything is made for more than one segment on a
     *     backend whose {@code capabilities().segments()} is NONE
     * @throws BackupFailure OUTPUT for a directory that cannot be made, is not writable or holds an
     *     export, or a file that cannot be written; CORRUPT_ITEM for an item that fails the check
     */
    public ExportResult run(Storage storage, String account, String table) {
        if (options.segments() > 1 && !storage.capabilities().segments().offered()) {
            // Refused before the directory is made: the backend cannot read one instant as several segments.
            throw dev.stillpoint.domain.error.StorageException.unsupported(storage.capabilities().backend(),
                    "it serves no segmented snapshot, so an export of " + options.segments() + " segments (-j "
                            + options.segments() + ") cannot be written; export with one (-j 1) [B3]");
        }
        return run(storage.snapshots(), account, table);
    }

    /**
     * An incremental export [I2] into this request's directory: the changes of {@code table} committed after
     * the snapshot {@code sinceMarker} names (the {@code snapshot.marker} of a full export's manifest, or the
     * {@code until.marker} of an earlier incremental one) and visible in a new snapshot, in this request's
     * layout [I3]: ours ({@link ChangesExport}) or DynamoDB's incremental one ({@link DynamoDbChangesLayout}),
     * in the view the table's log keeps.
     *
     * @param storage the opened storage
     * @param account the account the table belongs to
     * @param table the table's name
     * @param sinceMarker the marker the window starts after
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION naming a marker that starts no window
     *     of the table's log (another table's, older than the log, later than now) [I4]; UNSUPPORTED on a
     *     backend that keeps no log
     * @throws BackupFailure as {@link #run(Storage, String, String)}
     */
    public ChangesExport.Result runSince(Storage storage, String account, String table, String sinceMarker) {
        return runSince(storage, account, table, sinceMarker, Optional.empty());
    }

    /**
     * The incremental export of {@link #runSince(Storage, String, String, String)} with the images of
     * {@code view} on each line, as DynamoDB's ExportViewType chooses them: NEW_IMAGE drops the old images a
     * NEW_AND_OLD_IMAGES log keeps; NEW_AND_OLD_IMAGES of a NEW_IMAGE log is refused.
     *
     * @param storage the opened storage
     * @param account the account the table belongs to
     * @param table the table's name
     * @param sinceMarker the marker the window starts after
     * @param view NEW_IMAGE or NEW_AND_OLD_IMAGES; empty for the view the table's log keeps
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException as {@link #runSince(Storage, String, String, String)},
     *     and VALIDATION for a view the log cannot give
     * @throws BackupFailure as {@link #run(Storage, String, String)}
     */
    public ChangesExport.Result runSince(Storage storage, String account, String table, String sinceMarker,
                                         Optional<dev.stillpoint.domain.table.ChangeLog> view) {
        ChangesExport.Result result = ChangesExport.export(storage.changeLog(), account, table, sinceMarker, dir,
                temps.orElseGet(ExportTemps::new), options.format(), view);
        events.exported(result.puts() + result.tombstones(), result.bytes());
        return result;
    }

    /**
     * Exports {@code table} through {@code engine}: see the class comment.
     *
     * @param engine  the backend's snapshot engine
     * @param account the account the table belongs to
     * @param table   the table's name
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException as the snapshot engine throws it
     * @throws BackupFailure as {@link #run(Storage, String, String)}
     */
    public ExportResult run(SnapshotEngine engine, String account, String table) {
        TableExport.prepareOutput(dir);
        ExportTemps.removeStale(dir);
        ExportResult result = TableExport.export(engine, account, table, dir, options, listener,
                temps.orElseGet(ExportTemps::new));
        events.exported(result.items(), result.bytes());
        return result;
    }
}

package dev.stillpoint.backup;

import dev.stillpoint.ports.in.Storage;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One restore into a new table, described and then run in one call, as {@link ExportRequest} is:
 *
 * <pre>{@code
 * TableRestore.Result result = TableRestore.from(dir).run(storage, "acct", "orders2");
 * }</pre>
 *
 * <p>{@link #run} refuses a table name in use, checks ALL of the input before anything is created
 * [E3] (format, checksums, counts, every line, no two lines with one key [V4]), then creates the table
 * from the exported definition and loads it [E4]; a load that fails mid-way removes the table [E5].
 * Immutable: each setter returns a new request.
 *
 * @param dir        the export's directory, ours or DynamoDB's
 * @param key        the key schema: required for a DynamoDB export, which carries none; for ours, when
 *                   given, it must match the exported key [V5]
 * @param duplicates two lines with one key refuse the input (the default) or the last of them wins
 * @param batchSize  items per {@code RestoreLoad.write}
 * @param listener   told as items go in
 * @param abort      the handle a signal handler may abandon the restore with
 * @param jobs       data files loaded at once at most ({@code restore -j N}) [B3]: on a backend whose bulk path
 *                   has several writers (PostgreSQL) each file is read, checked again and loaded by a thread and
 *                   a load of its own; on one with one writer (SQLite, or no bulk path) the files load one after
 *                   another whatever N is. 1 by default
 */
public record RestoreRequest(Path dir, Optional<ExportKey> key, ExportReader.Duplicates duplicates, int batchSize,
                             TableRestore.Listener listener, TableRestore.Abort abort, int jobs) {

    /**
     * Requires every part and a batch of at least one item.
     *
     * @param dir        the export's directory
     * @param key        the key schema, or empty
     * @param duplicates what two lines with one key do
     * @param batchSize  items per write
     * @param listener   told as items go in
     * @param abort      the abandon handle
     * @param jobs       data files loaded at once at most, 1..{@value ExportOptions#MAX_SEGMENTS}
     */
    public RestoreRequest {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(duplicates, "duplicates");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(abort, "abort");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        if (jobs < 1 || jobs > ExportOptions.MAX_SEGMENTS) {
            throw dev.stillpoint.domain.error.StorageException.validation("the number of restore jobs (-j) must be 1.."
                    + ExportOptions.MAX_SEGMENTS + ", got " + jobs);
        }
    }

    static RestoreRequest of(Path dir) {
        return new RestoreRequest(dir, Optional.empty(), ExportReader.Duplicates.REFUSE, TableRestore.DEFAULT_BATCH,
                TableRestore.Listener.NONE, new TableRestore.Abort(), 1);
    }

    /**
     * The same request with the key schema, as the command line's {@code --key pk:S,sk:N} gives it.
     *
     * @param key the key schema ({@link ExportReader#parseKey} reads the text form)
     * @return the request
     */
    public RestoreRequest key(ExportKey key) {
        return new RestoreRequest(dir, Optional.of(key), duplicates, batchSize, listener, abort, jobs);
    }

    /**
     * The same request loading the last of lines holding one key instead of refusing the input.
     *
     * @return the request
     */
    public RestoreRequest lastWins() {
        return new RestoreRequest(dir, key, ExportReader.Duplicates.LAST_WINS, batchSize, listener, abort, jobs);
    }

    /**
     * The same request writing {@code batchSize} items per write.
     *
     * @param batchSize items per {@code RestoreLoad.write}, at least 1
     * @return the request
     */
    public RestoreRequest batchSize(int batchSize) {
        return new RestoreRequest(dir, key, duplicates, batchSize, listener, abort, jobs);
    }

    /**
     * The same request loading up to {@code jobs} data files at once ({@code restore -j N}) [B3].
     *
     * @param jobs 1..{@value ExportOptions#MAX_SEGMENTS}
     * @return the request
     * @throws dev.stillpoint.domain.error.StorageException VALIDATION naming a count outside that range
     */
    public RestoreRequest jobs(int jobs) {
        return new RestoreRequest(dir, key, duplicates, batchSize, listener, abort, jobs);
    }

    /**
     * The same request telling {@code listener} as items go in (a progress bar).
     *
     * @param listener told on the restoring thread
     * @return the request
     */
    public RestoreRequest listener(TableRestore.Listener listener) {
        return new RestoreRequest(dir, key, duplicates, batchSize, listener, abort, jobs);
    }

    /**
     * The same request abandoned through {@code abort} (a shutdown hook calls {@link TableRestore.Abort#abandon()}).
     *
     * @param abort a handle not used by another restore
     * @return the request
     */
    public RestoreRequest abort(TableRestore.Abort abort) {
        return new RestoreRequest(dir, key, duplicates, batchSize, listener, abort, jobs);
    }

    /**
     * Restores into the new table {@code table} of {@code storage}: see the class comment.
     *
     * @param storage the backend to restore into
     * @param account the new table's account
     * @param table   the new table's name
     * @return what was restored
     * @throws dev.stillpoint.domain.error.StorageException RESOURCE_IN_USE when the name is taken (nothing
     *     read or created), or as the backend answers
     * @throws BackupFailure a refusal of the input (nothing created)
     * @throws TableRestore.Abandoned a failure after the table was begun: the table was removed
     * @throws TableRestore.NotRemoved a failure after the table was begun whose removal failed too: the table stays
     *     CREATING until recovery removes it [E5]
     */
    public TableRestore.Result run(Storage storage, String account, String table) {
        TableRestore.refuseNameInUse(storage, account, table);
        return TableRestore.restore(storage, ExportReader.check(dir, table, key, duplicates), account, table, batchSize,
                jobs, listener, abort);
    }

    /**
     * Restores {@code export}, already checked in full by the caller (the command line checks first, to
     * show the check's progress and how many lines collapsed), into the new table {@code table}; this
     * request's batch size, listener and abort handle apply, its directory, key and duplicates rule were
     * the check's.
     *
     * @param storage the backend to restore into
     * @param export  the checked export ({@link ExportReader#check})
     * @param account the new table's account
     * @param table   the new table's name
     * @return what was restored
     * @throws dev.stillpoint.domain.error.StorageException RESOURCE_IN_USE when the name is taken (nothing
     *     created), or as the backend answers
     * @throws TableRestore.Abandoned a failure after the table was begun: the table was removed
     * @throws TableRestore.NotRemoved a failure after the table was begun whose removal failed too: the table stays
     *     CREATING until recovery removes it [E5]
     */
    public TableRestore.Result run(Storage storage, CheckedExport export, String account, String table) {
        return TableRestore.restore(storage, export, account, table, batchSize, jobs, listener, abort);
    }

    /**
     * Applies the incremental export in this request's directory [I3] (ours or DynamoDB's incremental layout)
     * to the EXISTING table {@code table}, which must stand at the export's start marker: the one a full
     * restore recorded, or the previous apply's end ({@link ChangesApply}). Everything is checked before the
     * first write; puts replace items, tombstones delete them; the table's marker then moves to the export's
     * end. This request's key, duplicates rule, batch size, listener and abort handle do not apply.
     *
     * @param storage the backend holding the table
     * @param account the table's account
     * @param table   the table's name
     * @return what was applied
     * @throws dev.stillpoint.domain.error.StorageException TableNotFound, or as PutItem and DeleteItem answer
     * @throws BackupFailure MARKER when the table does not stand at the export's start; FORMAT, INTEGRITY or ITEM
     *     for the input, naming the file and line; nothing written in either case
     */
    public ChangesApply.Result apply(Storage storage, String account, String table) {
        return ChangesApply.apply(storage, dir, account, table);
    }
}

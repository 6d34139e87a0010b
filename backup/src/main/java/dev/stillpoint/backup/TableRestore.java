package dev.stillpoint.backup;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Restores an export into a NEW table on any backend [E4, E5]: the name is refused up front when in use,
 * the whole input is checked before anything is created ({@link ExportReader}) [E3], then
 * {@code TableRestores.begin} creates the table CREATING (with its RestoreSummary in progress) from the
 * exported definition or the given key, the items go in through {@link RestoreLoad#write} in batches, and
 * {@link RestoreLoad#complete} makes it ACTIVE. A failure in the middle, or {@link Abort#abandon} (the
 * command line's Ctrl-C), closes the load, which removes the table: no half table is left.
 */
public final class TableRestore {

    /** Items per {@link RestoreLoad#write} call unless told otherwise. */
    public static final int DEFAULT_BATCH = 500;

    /** Told as a restore runs; a progress bar listens. */
    public interface Listener {
        /** Listens to nothing. */
        Listener NONE = items -> { };

        /**
         * The input is checked and the new table exists (CREATING); items follow.
         *
         * @param table the new table
         * @param items the items to load
         */
        default void began(TableDescription table, long items) {
        }

        /**
         * More items written.
         *
         * @param items items written so far
         */
        void restored(long items);

        /**
         * The table is ACTIVE.
         *
         * @param items items loaded in all
         */
        default void finished(long items) {
        }
    }

    /**
     * What a restore wrote.
     *
     * @param table   the new table, ACTIVE, its RestoreSummary no longer in progress
     * @param format  the layout read
     * @param items   items loaded
     * @param elapsed from begin to ACTIVE (the checked input's first reading not included)
     * @param writers the data files loaded at once ({@code restore -j N}: at most N, the files and the backend's
     *                writers; 1 on a backend with one writer)
     */
    public record Result(TableDescription table, ExportFormat format, long items, Duration elapsed, int writers) {

        /**
         * A result of one writer.
         *
         * @param table   the new table
         * @param format  the layout read
         * @param items   items loaded
         * @param elapsed from begin to ACTIVE
         */
        public Result(TableDescription table, ExportFormat format, long items, Duration elapsed) {
            this(table, format, items, elapsed, 1);
        }

        /** @return items per second, begin to ACTIVE */
        public double itemsPerSecond() {
            return items / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }

    /**
     * A handle on a running restore for whoever may stop it (a signal handler): {@link #abandon} waits for
     * the batch being written, then closes the load, which removes the new table.
     */
    public static final class Abort {
        /**
         * Writes share it (several at once under {@code restore -j N}); {@link #abandon} takes it alone, so it
         * waits for every batch being written, as it waited for the one batch of a single writer.
         */
        private final java.util.concurrent.locks.ReentrantReadWriteLock lock = new java.util.concurrent.locks.ReentrantReadWriteLock();
        private volatile RestoreLoad load;
        private volatile boolean abandoned;
        private boolean completed;

        void started(RestoreLoad started) {
            lock.writeLock().lock();
            try {
                if (abandoned) {
                    started.close();
                    throw interrupted();
                }
                this.load = started;
            } finally {
                lock.writeLock().unlock();
            }
        }

        void write(List<Item> batch) {
            lock.readLock().lock();
            try {
                if (abandoned) {
                    throw interrupted();
                }
                load.write(batch);
            } finally {
                lock.readLock().unlock();
            }
        }

        TableDescription complete() {
            lock.writeLock().lock();
            try {
                if (abandoned) {
                    throw interrupted();
                }
                TableDescription done = load.complete();
                completed = true;
                return done;
            } finally {
                lock.writeLock().unlock();
            }
        }

        /**
         * Stops the restore: the new table (if begun) is removed.
         *
         * @return whether a begun table was abandoned (false when none was begun or it had completed)
         */
        public boolean abandon() {
            abandoned = true; // first, so writes waiting for the lock give up instead of writing on
            lock.writeLock().lock();
            try {
                if (completed) {
                    return false;
                }
                if (load != null) {
                    load.close();
                    return true;
                }
                return false;
            } finally {
                lock.writeLock().unlock();
            }
        }

        private static BackupFailure interrupted() {
            return new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the restore was interrupted", null);
        }
    }

    /**
     * Why a restore stopped after the table was begun, when removing the table failed too ({@link #getCause()}
     * is why it stopped, {@link #removal()} why the table stayed): the table stays CREATING, its restore no longer
     * renewed, until an opening that writes removes it once its sign of life is older than the idle limit [E5].
     */
    public static final class NotRemoved extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String tableName;
        private final RuntimeException removal;

        NotRemoved(String tableName, RuntimeException cause, RuntimeException removal) {
            super("restore into '" + tableName + "' stopped: " + cause.getMessage() + "; removing the table failed too: "
                    + removal.getMessage(), cause);
            this.tableName = tableName;
            this.removal = removal;
        }

        /** @return the table that stayed */
        public String tableName() {
            return tableName;
        }

        /** @return why removing the table failed */
        public RuntimeException removal() {
            return removal;
        }
    }

    /** Why a restore stopped after the table was begun: the table was removed ({@link #getCause()} says why). */
    public static final class Abandoned extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String tableName;

        Abandoned(String tableName, RuntimeException cause) {
            super("restore into '" + tableName + "' stopped and the table was removed: " + cause.getMessage(), cause);
            this.tableName = tableName;
        }

        /** @return the table that was removed */
        public String tableName() {
            return tableName;
        }
    }

    private TableRestore() {
    }

    /**
     * A restore of the export in {@code dir}, refusing duplicate keys and without a key schema until told
     * otherwise; run it with {@link RestoreRequest#run}.
     *
     * @param dir the export's directory, ours or DynamoDB's
     * @return the request, to refine ({@code .key(..)}, {@code .lastWins()}) and run
     */
    public static RestoreRequest from(Path dir) {
        return RestoreRequest.of(dir);
    }

    /**
     * Checks the export in {@code dir} in full, then restores it into a new table {@code tableName}. Package
     * private: {@link RestoreRequest} ({@link #from}) is the one public way [issue 29].
     *
     * @param storage   the backend to restore into
     * @param dir       the export directory
     * @param key       the key for a DynamoDB export (which carries no definition); for ours, checked against it when given
     * @param accountId the new table's account
     * @param tableName the new table's name
     * @param batchSize items per {@link RestoreLoad#write}
     * @param listener  told as items go in
     * @param abort     the handle a signal handler may abandon the restore with
     * @return what was restored
     * @throws StorageException RESOURCE_IN_USE when the name is taken (nothing read or created), or as the
     *     backend answers begin
     * @throws BackupFailure a refusal of the input (nothing created)
     * @throws Abandoned a failure after the table was begun: the table was removed
     * @throws NotRemoved a failure after the table was begun whose removal failed too: the table stays CREATING
     *     until recovery removes it [E5]
     */
    static Result restore(Storage storage, Path dir, Optional<ExportKey> key, String accountId, String tableName,
                                 int batchSize, Listener listener, Abort abort) {
        refuseNameInUse(storage, accountId, tableName);
        return restore(storage, ExportReader.check(dir, tableName, key), accountId, tableName, batchSize, 1, listener, abort);
    }

    /**
     * Restores an export already checked in full into a new table {@code tableName}; the public way is
     * {@link RestoreRequest#run(Storage, CheckedExport, String, String)}.
     *
     * @param storage   the backend to restore into
     * @param export    the checked export
     * @param accountId the new table's account
     * @param tableName the new table's name
     * @param batchSize items per {@link RestoreLoad#write}
     * @param jobs      data files loaded at once at most ({@code -j N}); as many as the load's
     *                  {@link RestoreLoad#concurrentWriters()} and the export's files allow
     * @param listener  told as items go in
     * @param abort     the handle a signal handler may abandon the restore with
     * @return what was restored
     * @throws StorageException RESOURCE_IN_USE when the name is taken (nothing created), or as the backend
     *     answers begin
     * @throws Abandoned a failure after the table was begun: the table was removed
     * @throws NotRemoved a failure after the table was begun whose removal failed too: the table stays CREATING
     *     until recovery removes it [E5]
     */
    static Result restore(Storage storage, CheckedExport export, String accountId, String tableName,
                                 int batchSize, int jobs, Listener listener, Abort abort) {
        long started = System.nanoTime();
        refuseNameInUse(storage, accountId, tableName);
        CreateTableRequest definition = export.definition(accountId, tableName);
        // RestoreDateTime is "Point in time or source backup time" (DynamoDB API reference, RestoreSummary:
        // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html): the instant the
        // restored data is of, not when the restore ran. For an export that is its manifest's export time; only
        // an export that does not say when it was read falls back to the restore's own time.
        Instant restoredTo = export.exportTime().orElseGet(Instant::now);
        // The export's marker goes with the table (as its SourceBackupArn): an incremental export starting at
        // that marker can be applied to it later, and one starting elsewhere is refused by name [I3].
        Optional<String> backup = export.snapshotMarker().map(m -> RestoredMarker.backupArn(export.sourceTableArn(), m));
        RestoreLoad load = storage.restores().begin(definition,
                new RestoreOrigin(backup, export.sourceTableArn(), restoredTo));
        try {
            abort.started(load);
            listener.began(load.table(), export.itemCount());
            long[] written = {0};
            int writers = Math.min(jobs, Math.min(load.concurrentWriters(), export.dataFiles()));
            export.load(batchSize, Math.max(1, writers), batch -> {
                abort.write(batch);
                // Batches of several files come from several threads: the total and the listener under one lock.
                synchronized (written) {
                    written[0] += batch.size();
                    listener.restored(written[0]);
                }
            });
            TableDescription done = abort.complete();
            listener.finished(written[0]);
            return new Result(done, export.format(), written[0], Duration.ofNanos(System.nanoTime() - started),
                    Math.max(1, writers));
        } catch (RuntimeException e) {
            try {
                abort.abandon();
                load.close(); // idempotent: the table is removed even when abort never saw the load
            } catch (RuntimeException removal) {
                // Found from outside (a disk full under SQLite): the removal's failure replaced the load's.
                e.addSuppressed(removal);
                throw new NotRemoved(tableName, e, removal);
            }
            throw new Abandoned(tableName, e);
        }
    }

    static void refuseNameInUse(Storage storage, String accountId, String tableName) {
        try {
            TableDescription existing = storage.tables().describeTable(accountId, tableName);
            throw StorageException.resourceInUse("table '" + existing.tableName() + "' already exists ("
                    + existing.status() + "); a restore creates a new table");
        } catch (StorageException e) {
            if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                throw e;
            }
        }
    }
}

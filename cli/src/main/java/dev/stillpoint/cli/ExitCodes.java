package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;

/** The exit codes of every command, one per thing a script may want to react to. */
final class ExitCodes {
    static final int OK = 0;
    /** Any other storage error (validation, a table not ACTIVE, an internal failure). */
    static final int STORAGE_ERROR = 1;
    /** Bad options or arguments (picocli's default for a usage error). */
    static final int USAGE = 2;
    static final int TABLE_NOT_FOUND = 3;
    /** The database file is missing, unreadable or not a SQLite database. */
    static final int DATABASE_FILE = 4;
    /** The output directory cannot be created or written, or is not a directory. */
    static final int OUTPUT = 5;
    /**
     * Not enough snapshot permits free (LimitExceeded): every one is held (retry when a snapshot or backup ends), or
     * {@code export -j N} asks for more segments than the engine has permits, which no retry grants [B3, D7].
     */
    static final int SLOTS_FULL = 6;
    /** {@code demo}: the export did not match the table as it was at the snapshot. */
    static final int VERIFICATION_FAILED = 7;
    /** {@code export}: a stored item is not well-formed DynamoDB JSON or names another key than its row's [E1]. */
    static final int CORRUPT_ITEM = 8;
    /** {@code export --cassandra}: the backend has no snapshot, so no export [C1, E2]. */
    static final int UNSUPPORTED = 9;
    /** {@code restore}: the input is missing, unreadable, or not an export of a known format and version [E3]. */
    static final int INPUT_FORMAT = 10;
    /** {@code restore}: a checksum, an item count or a compressed stream does not match its manifest [E3]. */
    static final int INPUT_INTEGRITY = 11;
    /** {@code restore}: a line is not an item, or its key attributes are missing or of another type [E3]. */
    static final int INPUT_ITEM = 12;
    /** {@code restore}: the new table's name is in use; nothing was created [E4]. */
    static final int TABLE_EXISTS = 13;
    /** {@code restore}: the load failed or was interrupted mid-way; the new table was removed [E5]. */
    static final int RESTORE_ABANDONED = 14;

    /** {@code get-item}: no item has the key given [X4]. */
    static final int ITEM_NOT_FOUND = 15;
    /**
     * {@code restore} of an incremental export: it does not start at the snapshot marker the table stands
     * at (or the table records none); nothing was written [I3].
     */
    static final int INPUT_MARKER = 16;
    /**
     * {@code restore}: the load failed mid-way and removing the new table failed too (a disk full, the database
     * gone); the table stays CREATING until an opening that writes removes it once its restore is idle [E5].
     */
    static final int RESTORE_NOT_REMOVED = 17;

    private ExitCodes() {
    }

    /**
     * The word {@code --json} gives as an error's {@code reason} for a failure the command line names by its
     * exit code (a storage failure gives its own reason [D10] instead): the constant's name here.
     */
    static String reason(int code) {
        return switch (code) {
            case OK -> "OK";
            case STORAGE_ERROR -> "STORAGE_ERROR";
            case USAGE -> "USAGE";
            case TABLE_NOT_FOUND -> "TABLE_NOT_FOUND";
            case DATABASE_FILE -> "DATABASE_FILE";
            case OUTPUT -> "OUTPUT";
            case SLOTS_FULL -> "SLOTS_FULL";
            case VERIFICATION_FAILED -> "VERIFICATION_FAILED";
            case CORRUPT_ITEM -> "CORRUPT_ITEM";
            case UNSUPPORTED -> "UNSUPPORTED";
            case INPUT_FORMAT -> "INPUT_FORMAT";
            case INPUT_INTEGRITY -> "INPUT_INTEGRITY";
            case INPUT_ITEM -> "INPUT_ITEM";
            case TABLE_EXISTS -> "TABLE_EXISTS";
            case RESTORE_ABANDONED -> "RESTORE_ABANDONED";
            case ITEM_NOT_FOUND -> "ITEM_NOT_FOUND";
            case INPUT_MARKER -> "INPUT_MARKER";
            case RESTORE_NOT_REMOVED -> "RESTORE_NOT_REMOVED";
            default -> "EXIT_" + code;
        };
    }

    /** The exit code of a storage failure. */
    static int of(StorageException e) {
        return switch (e.reason()) {
            case TABLE_NOT_FOUND -> TABLE_NOT_FOUND;
            case LIMIT_EXCEEDED -> SLOTS_FULL;
            // The backend does not do what was asked (snapshots on Cassandra, a change log on MongoDB, a write
            // on a read-only opening): one code for every command, so a script tells it from a failure.
            case UNSUPPORTED -> UNSUPPORTED;
            default -> STORAGE_ERROR;
        };
    }
}

package dev.stillpoint.backup;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Why an export or a restore stopped, typed so a caller can react to each kind (the command line gives
 * each its exit code) without reading the message. The message names the file, and the line where
 * one is at fault; it never names a Java class [R6].
 */
public final class BackupFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The kinds of failure, one per thing a caller may want to react to. */
    public enum Problem {
        /** The output directory cannot be created or written, or is not a directory. */
        OUTPUT,
        /** A stored item is not well-formed DynamoDB JSON or names another key than its row's [E1]. */
        CORRUPT_ITEM,
        /** The export was abandoned (its temporary files removed) before it finished. */
        INTERRUPTED,
        /** The input is missing, unreadable, or not an export of a known format and version [E3]. */
        FORMAT,
        /** A checksum, an item count or a compressed stream does not match what the manifest says [E3]. */
        INTEGRITY,
        /** A line is not an item, or its key attributes are missing or of another type than the key's [E3]. */
        ITEM
    }

    private final Problem problem;
    private final transient Optional<Path> file;
    private final long line;

    BackupFailure(Problem problem, String message, Throwable cause) {
        this(problem, null, 0, message, cause);
    }

    BackupFailure(Problem problem, Path file, long line, String message, Throwable cause) {
        super(message, cause);
        this.problem = problem;
        this.file = Optional.ofNullable(file);
        this.line = line;
    }

    /** @return the kind of failure */
    public Problem problem() {
        return problem;
    }

    /** @return the file at fault, when one is */
    public Optional<Path> file() {
        return file;
    }

    /** @return the line (from 1) of {@link #file()} at fault, or 0 when the whole file is */
    public long line() {
        return line;
    }
}

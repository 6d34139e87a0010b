package dev.stillpoint.backup;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Why an export or a restore stopped, typed so a caller can react to each kind (the command line gives
 * each its exit code) without reading the message. The message names the file, and the line where
 * one is at fault; it never names a Java class [R6]. It is a {@link StorageException} whose reason
 * [D10] follows from the problem: the caller's input or target is a ValidationException, a stored item
 * that is not what its row says is an internal error, an interrupted export is transient.
 */
public final class BackupFailure extends StorageException {
    private static final long serialVersionUID = 1L;

    /** The kinds of failure, one per thing a caller may want to react to, each with its reason [D10]. */
    public enum Problem {
        /** The output directory cannot be created or written, or is not a directory. */
        OUTPUT(ErrorReason.VALIDATION),
        /** A stored item is not well-formed DynamoDB JSON or names another key than its row's [E1]. */
        CORRUPT_ITEM(ErrorReason.INTERNAL),
        /** The export was abandoned (its temporary files removed) before it finished. */
        INTERRUPTED(ErrorReason.TRANSIENT),
        /** The input is missing, unreadable, or not an export of a known format and version [E3]. */
        FORMAT(ErrorReason.VALIDATION),
        /** A checksum, an item count or a compressed stream does not match what the manifest says [E3]. */
        INTEGRITY(ErrorReason.VALIDATION),
        /** A line is not an item, or its key attributes are missing or of another type than the key's [E3]. */
        ITEM(ErrorReason.VALIDATION),
        /**
         * An incremental export does not start at the snapshot marker the target table stands at (or the
         * table stands at none): applying it would not give the table at the export's end [I3].
         */
        MARKER(ErrorReason.VALIDATION);

        private final ErrorReason reason;

        Problem(ErrorReason reason) {
            this.reason = reason;
        }

        /** @return the reason from the closed set a failure of this kind carries */
        public ErrorReason reason() {
            return reason;
        }
    }

    private final Problem problem;
    private final transient Optional<Path> file;
    private final long line;

    BackupFailure(Problem problem, String message, Throwable cause) {
        this(problem, null, 0, message, cause);
    }

    BackupFailure(Problem problem, Path file, long line, String message, Throwable cause) {
        super(problem.reason(), message, cause);
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

package dev.stillpoint.domain.error;

/**
 * The one exception that crosses a port: a reason from the closed set [D10] and a message that
 * names the offending value (or the server's own code name and message), never a dump of a reply.
 * Not final: a library around the core may add typed detail in a subclass (a backup's file and line)
 * while the reason stays the one a server maps to its answer.
 */
public class StorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorReason reason;

    /**
     * A failure for {@code reason}, with no cause.
     *
     * @param reason why the operation failed; required
     * @param message what failed, for the caller
     */
    public StorageException(ErrorReason reason, String message) {
        this(reason, message, null);
    }

    /**
     * A failure for {@code reason} caused by {@code cause}.
     *
     * @param reason why the operation failed; required
     * @param message what failed, for the caller
     * @param cause the underlying failure, or {@code null}
     */
    public StorageException(ErrorReason reason, String message, Throwable cause) {
        super(message, cause);
        if (reason == null) {
            throw new IllegalArgumentException("reason is required");
        }
        this.reason = reason;
    }

    /**
     * The reason, which decides the DynamoDB error type and HTTP status a server answers with.
     *
     * @return the reason of this failure
     */
    public ErrorReason reason() {
        return reason;
    }

    /**
     * A request that broke a rule.
     *
     * @param message what was wrong, naming the value
     * @return a VALIDATION failure
     */
    public static StorageException validation(String message) {
        return new StorageException(ErrorReason.VALIDATION, message);
    }

    /**
     * A table that does not exist for the account.
     *
     * @param table the table's name
     * @return a TABLE_NOT_FOUND failure naming the table
     */
    public static StorageException tableNotFound(String table) {
        return new StorageException(ErrorReason.TABLE_NOT_FOUND, "Table not found: " + table);
    }

    /**
     * A table in use.
     *
     * @param message why the table is in use
     * @return a RESOURCE_IN_USE failure
     */
    public static StorageException resourceInUse(String message) {
        return new StorageException(ErrorReason.RESOURCE_IN_USE, message);
    }

    /**
     * A bound that was reached.
     *
     * @param message which bound, and who holds it
     * @return a LIMIT_EXCEEDED failure
     */
    public static StorageException limitExceeded(String message) {
        return new StorageException(ErrorReason.LIMIT_EXCEEDED, message);
    }

    /**
     * Something {@code backend} cannot do.
     *
     * @param backend the backend's name
     * @param why what it cannot do
     * @return an UNSUPPORTED failure naming the backend
     */
    public static StorageException unsupported(String backend, String why) {
        return new StorageException(ErrorReason.UNSUPPORTED, backend + " does not support this: " + why);
    }

    /**
     * A failure inside the storage layer.
     *
     * @param message what failed
     * @param cause the underlying failure
     * @return an INTERNAL failure
     */
    public static StorageException internal(String message, Throwable cause) {
        return new StorageException(ErrorReason.INTERNAL, message, cause);
    }

    @Override
    public String toString() {
        return "StorageException[" + reason + "]: " + getMessage();
    }
}

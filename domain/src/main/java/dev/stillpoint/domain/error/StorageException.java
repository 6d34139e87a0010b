package dev.stillpoint.domain.error;

/**
 * The one exception that crosses a port: a reason from the closed set [D10] and a message that
 * names the offending value (or the server's own code name and message), never a dump of a reply.
 */
public final class StorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorReason reason;

    public StorageException(ErrorReason reason, String message) {
        this(reason, message, null);
    }

    public StorageException(ErrorReason reason, String message, Throwable cause) {
        super(message, cause);
        if (reason == null) {
            throw new IllegalArgumentException("reason is required");
        }
        this.reason = reason;
    }

    public ErrorReason reason() {
        return reason;
    }

    public static StorageException validation(String message) {
        return new StorageException(ErrorReason.VALIDATION, message);
    }

    public static StorageException tableNotFound(String table) {
        return new StorageException(ErrorReason.TABLE_NOT_FOUND, "Table not found: " + table);
    }

    public static StorageException resourceInUse(String message) {
        return new StorageException(ErrorReason.RESOURCE_IN_USE, message);
    }

    public static StorageException limitExceeded(String message) {
        return new StorageException(ErrorReason.LIMIT_EXCEEDED, message);
    }

    public static StorageException unsupported(String backend, String why) {
        return new StorageException(ErrorReason.UNSUPPORTED, backend + " does not support this: " + why);
    }

    public static StorageException internal(String message, Throwable cause) {
        return new StorageException(ErrorReason.INTERNAL, message, cause);
    }

    @Override
    public String toString() {
        return "StorageException[" + reason + "]: " + getMessage();
    }
}

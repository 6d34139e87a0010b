package dev.stillpoint.sqlcatalog;

/** A catalog migration that could not be applied; its transaction was rolled back. */
public final class MigrationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int version;

    /** A failure of {@code version} (0: none in particular). */
    public MigrationException(int version, String message, Throwable cause) {
        super(message, cause);
        this.version = version;
    }

    /** The version that failed, or the database's version when it is newer than this build knows. */
    public int version() {
        return version;
    }
}

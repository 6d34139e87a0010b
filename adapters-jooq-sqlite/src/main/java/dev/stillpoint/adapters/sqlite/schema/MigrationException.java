package dev.stillpoint.adapters.sqlite.schema;

/** A schema migration that could not be applied; its transaction was rolled back. */
public final class MigrationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int version;

    MigrationException(int version, String message, Throwable cause) {
        super(message, cause);
        this.version = version;
    }

    /** The version that failed, or the database's version when it is newer than this build knows. */
    public int version() {
        return version;
    }
}

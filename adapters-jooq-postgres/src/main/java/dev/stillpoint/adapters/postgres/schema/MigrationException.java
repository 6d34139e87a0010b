package dev.stillpoint.adapters.postgres.schema;

/** A catalog migration that could not be applied; {@link #version()} names the script (0: none). */
public final class MigrationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int version;

    public MigrationException(int version, String message, Throwable cause) {
        super(message, cause);
        this.version = version;
    }

    public int version() {
        return version;
    }
}

package dev.stillpoint.ports.out;

/**
 * The first step of a snapshot open: the backend's read transaction or session has begun and has
 * read nothing yet. Its one way on is {@link #readDefinition()}.
 */
public interface BegunRead extends AutoCloseable {

    /**
     * Reads the table's definition inside the read; TableNotFound when it has no row. The returned step
     * holds everything this one held; when it throws, this one still holds it.
     *
     * @return the next step, holding the description as of the snapshot
     */
    DefinedRead readDefinition();

    /** Ends the read when the open fails or is cancelled before its definition was read. */
    @Override
    void close();
}

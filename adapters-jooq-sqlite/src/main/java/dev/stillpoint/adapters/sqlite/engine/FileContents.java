package dev.stillpoint.adapters.sqlite.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * What an existing database file holds, read without writing to it (see {@link ReadOnlyFile#inspect}),
 * so that a read-write opening can refuse a file that is not Stillpoint's before anything touches it [O4].
 *
 * @param file          the file, as given
 * @param version       the Stillpoint schema version recorded in it; 0 when it has no {@code sp_schema_version}
 * @param foreignObjects the names of schema objects it holds that are not Stillpoint's (its tables,
 *                      views, indexes, triggers), in name order; empty for an empty database
 */
public record FileContents(Path file, int version, List<String> foreignObjects) {

    /** Whether nothing is in it yet: a new, empty SQLite database Stillpoint may initialise. */
    public boolean empty() {
        return version == 0 && foreignObjects.isEmpty();
    }

    /** Whether it is a Stillpoint database (of any schema version). */
    public boolean stillpoint() {
        return version > 0;
    }
}

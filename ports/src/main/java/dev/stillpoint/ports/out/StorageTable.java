package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;
import java.util.Optional;

/**
 * A table as its backend loaded it for item work: the definition the core's rules read, the stamp it
 * was loaded under, and whatever the backend needs to reach the table's relations (kept by the
 * implementing class, which only its own backend reads).
 */
public interface StorageTable {

    /**
     * The table's definition as loaded.
     *
     * @return the description
     */
    TableDescription description();

    /**
     * The stamp the definition was loaded under; empty, as by default, on a backend that keeps no catalog
     * version ({@link ItemStorage#versionedCatalog()} false).
     *
     * @return the stamp, or empty
     */
    default Optional<CatalogStamp> stamp() {
        return Optional.empty();
    }
}

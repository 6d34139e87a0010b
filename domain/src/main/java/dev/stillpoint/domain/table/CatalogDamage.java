package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.function.Supplier;

/**
 * Reading a table's catalog entry: any failure is catalog damage, reported as such, naming the table
 * and what could be named (the field and its stored text, see {@link CatalogJson}), never as an item
 * error and never with a Java class name [R6]. An operator who sees it knows where to look. A
 * backend whose decoder throws its own exception type turns it into {@link IllegalStateException}
 * inside {@code read}; a storage failure (Transient and the like) passes through unchanged.
 */
public final class CatalogDamage {

    private CatalogDamage() {
    }

    /**
     * {@code read}'s result; a failure becomes an Internal error saying the catalog entry of {@code table} is damaged.
     *
     * @param <T> the type of what is read
     * @param table the table whose catalog entry is read
     * @param read the read of the entry
     * @return what {@code read} returned
     */
    public static <T> T reading(String table, Supplier<T> read) {
        try {
            return read.get();
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.VALIDATION) {
                // A stored value the domain's own checks refuse (an index name, a key schema): damage, not the caller's error.
                throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': catalog damage: " + e.getMessage(), e);
            }
            if (e.reason() != ErrorReason.INTERNAL || !e.getMessage().startsWith("catalog damage")) {
                throw e;
            }
            throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': " + e.getMessage(), e);
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException | ClassCastException e) {
            throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': catalog damage: a stored field of"
                    + " its catalog entry holds a value this version cannot read", e);
        }
    }
}

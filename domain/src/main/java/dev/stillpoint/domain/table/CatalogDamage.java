package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.function.Supplier;

/**
 * Reading a table's catalog entry: any failure is catalog damage, reported as such, naming the table
 * and what could be named (the field and its stored text, see item-json's CatalogJson), never as an item
 * error and never with a Java class name [R6]. An operator who sees it knows where to look. A
 * backend whose decoder throws its own exception type turns it into {@link IllegalStateException}
 * inside {@code read}; a storage failure (Transient and the like) passes through unchanged.
 */
public final class CatalogDamage {

    /** How every catalog-damage message begins after its table; {@link #isDamage} recognises it by this. */
    private static final String MARK = "catalog damage: ";

    private CatalogDamage() {
    }

    /**
     * The error for a stored catalog field that cannot be read: names the field and the stored text.
     *
     * @param field what the field holds ("attribute definitions", "projection", ...)
     * @param stored the stored text, cut for the message
     * @param cause why it could not be read
     * @return the Internal error to throw
     */
    public static StorageException field(String field, String stored, RuntimeException cause) {
        String shown = stored == null ? "nothing"
                : stored.length() > 80 ? "'" + stored.substring(0, 80) + "...'" : "'" + stored + "'";
        // The parser speaks of items, its usual input; here it read a catalog field.
        String why = cause instanceof StorageException s ? ": " + s.getMessage().replace("invalid item JSON", "invalid JSON") : "";
        return new StorageException(ErrorReason.INTERNAL, MARK + "the stored " + field + " (" + shown + ") cannot be read"
                + why, cause);
    }

    /**
     * Whether {@code e} reports catalog damage (from {@link #field} or {@link #reading}).
     *
     * @param e the error to look at
     * @return true when it is catalog damage
     */
    public static boolean isDamage(StorageException e) {
        return e.reason() == ErrorReason.INTERNAL && e.getMessage() != null && e.getMessage().contains(MARK);
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
                throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': " + MARK + e.getMessage(), e);
            }
            if (!isDamage(e)) {
                throw e;
            }
            throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': " + e.getMessage(), e);
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException | ClassCastException e) {
            throw new StorageException(ErrorReason.INTERNAL, "table '" + table + "': " + MARK + "a stored field of"
                    + " its catalog entry holds a value this version cannot read", e);
        }
    }
}

package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import java.util.List;

/**
 * The attributes an index holds besides the keys. Non-key attributes are named only for
 * {@link ProjectionType#INCLUDE}, as DynamoDB requires.
 */
public record Projection(ProjectionType type, List<String> nonKeyAttributes) {
    /**
     * Refuses a missing type or non-key attributes for any type but INCLUDE; copies the names.
     *
     * @param type which attributes the index copies
     * @param nonKeyAttributes the non-key attributes an INCLUDE projection names
     */
    public Projection {
        TableChecks.required(type, "projection type");
        nonKeyAttributes = TableChecks.copy(nonKeyAttributes, "projection non-key attribute");
        if (type != ProjectionType.INCLUDE && !nonKeyAttributes.isEmpty()) {
            throw StorageException.validation(
                    "projection " + type + " takes no non-key attributes, got: " + nonKeyAttributes);
        }
        for (String attribute : nonKeyAttributes) {
            if (attribute.isEmpty()) {
                throw StorageException.validation("projection non-key attribute names must not be empty");
            }
        }
        if (nonKeyAttributes.stream().distinct().count() != nonKeyAttributes.size()) {
            throw StorageException.validation("projection names a non-key attribute twice: " + nonKeyAttributes);
        }
    }

    /**
     * Every attribute of the base item.
     *
     * @return the ALL projection
     */
    public static Projection all() {
        return new Projection(ProjectionType.ALL, List.of());
    }

    /**
     * The table and index keys only.
     *
     * @return the KEYS_ONLY projection
     */
    public static Projection keysOnly() {
        return new Projection(ProjectionType.KEYS_ONLY, List.of());
    }

    /**
     * The keys and the named attributes.
     *
     * @param nonKeyAttributes the non-key attributes to copy into the index
     * @return the INCLUDE projection
     */
    public static Projection include(List<String> nonKeyAttributes) {
        return new Projection(ProjectionType.INCLUDE, nonKeyAttributes);
    }
}

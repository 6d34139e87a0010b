package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import java.util.List;

/**
 * The attributes an index holds besides the keys. Non-key attributes are named only for
 * {@link ProjectionType#INCLUDE}, as DynamoDB requires.
 */
public record Projection(ProjectionType type, List<String> nonKeyAttributes) {
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

    /** Every attribute of the base item. */
    public static Projection all() {
        return new Projection(ProjectionType.ALL, List.of());
    }

    /** The table and index keys only. */
    public static Projection keysOnly() {
        return new Projection(ProjectionType.KEYS_ONLY, List.of());
    }

    /** The keys and the named attributes. */
    public static Projection include(List<String> nonKeyAttributes) {
        return new Projection(ProjectionType.INCLUDE, nonKeyAttributes);
    }
}

package dev.stillpoint.domain.key;

import dev.stillpoint.domain.error.StorageException;

/** A declared key attribute: its name and scalar type. */
public record AttributeDefinition(String name, ScalarType type) {
    /**
     * Checks the name and refuses a missing type with a validation error.
     *
     * @param name the attribute's name
     * @param type the attribute's declared scalar type
     */
    public AttributeDefinition {
        if (name == null || name.isEmpty()) {
            throw StorageException.validation("attribute definition needs a non-empty name, got: " + name);
        }
        if (type == null) {
            throw StorageException.validation("attribute definition '" + name + "' needs a type (S, N or B)");
        }
    }
}

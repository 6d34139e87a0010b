package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Names;

/**
 * A vector index over one attribute holding fixed-length vectors.
 *
 * @param metric the distance metric's name as the server spells it (for example {@code COSINE})
 */
public record VectorIndex(String name, String attributeName, int dimensions, String metric, IndexStatus status) {
    /**
     * Checks the name and refuses a missing attribute, metric or status, or fewer than one dimension.
     *
     * @param name the index name
     * @param attributeName the attribute holding the vectors
     * @param dimensions the length of every vector
     * @param metric the distance metric's name as the server spells it (for example {@code COSINE})
     * @param status the index's reported status
     */
    public VectorIndex {
        Names.requireIndexName(name);
        TableChecks.requiredText(attributeName, "attribute name of vector index '" + name + "'");
        if (dimensions < 1) {
            throw StorageException.validation(
                    "vector index '" + name + "' needs at least one dimension, got: " + dimensions);
        }
        TableChecks.requiredText(metric, "metric of vector index '" + name + "'");
        TableChecks.required(status, "status of vector index '" + name + "'");
    }

    /**
     * This index in {@code newStatus}.
     *
     * @param newStatus the index's new status
     * @return the index in that status
     */
    public VectorIndex withStatus(IndexStatus newStatus) {
        return new VectorIndex(name, attributeName, dimensions, metric, newStatus);
    }
}

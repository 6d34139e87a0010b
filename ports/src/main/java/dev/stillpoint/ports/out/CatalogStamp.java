package dev.stillpoint.ports.out;

import java.util.Objects;

/**
 * A table's catalog row as an item write checks it: which table it is (a table dropped and created again
 * under its name has a new id) and its catalog version, which every change to the table's definition
 * advances in the same transaction. Two equal stamps mean one definition, so a definition loaded under a
 * stamp may be used again by any write that reads the same stamp.
 *
 * @param tableId the table's id
 * @param catalogVersion the version of its definition
 */
public record CatalogStamp(String tableId, long catalogVersion) {

    /**
     * Checks the id is present.
     *
     * @param tableId the table's id
     * @param catalogVersion the version of its definition
     */
    public CatalogStamp {
        Objects.requireNonNull(tableId, "tableId");
    }
}

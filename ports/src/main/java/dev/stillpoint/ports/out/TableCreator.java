package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;

/**
 * Where a checked CreateTable goes: the shared {@code TableCreation} (CREATING, activated by the
 * poller) or a backend's own path when its catalog can create a table ACTIVE in one conditional write.
 */
@FunctionalInterface
public interface TableCreator {

    /**
     * Creates the table; ResourceInUse when the name is taken in any state.
     *
     * @param request the checked CreateTable request
     * @return the CREATING table's description
     */
    TableDescription createTable(CreateTableRequest request);
}

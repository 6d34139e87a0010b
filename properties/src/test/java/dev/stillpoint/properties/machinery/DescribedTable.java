package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.StorageTable;
import java.util.Optional;

/** A table of a storage without catalog versions, as a fake loads it: its description only. */
public record DescribedTable(TableDescription description) implements StorageTable {

    @Override
    public Optional<CatalogStamp> stamp() {
        return Optional.empty();
    }
}

package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.TableRecord;
import java.util.List;
import java.util.Optional;

/**
 * A table's catalog rows as one load read them ({@link TableLoads#load}), the same on both SQL catalogs:
 * what the table's relations are called and typed, and the table as the domain knows it.
 *
 * @param tableId         the table's id (names its relations, and its markers)
 * @param catalogVersion  the row's version, advanced by the catalog's triggers with every change of the definition
 * @param relationName    the base relation
 * @param pkType          the table's partition key type
 * @param skType          its sort key type, empty without a sort key
 * @param indexes         its GSI and LSI rows by ordinal
 * @param vectorRelations its vector indexes' relations by ordinal (empty on an items-only load)
 * @param record          the description and lifecycle state
 * @param full            whether vector indexes and the restore record were read too
 */
public record CatalogRow(String tableId, long catalogVersion, String relationName, ScalarType pkType,
                         Optional<ScalarType> skType, List<IndexRow> indexes, List<String> vectorRelations,
                         TableRecord record, boolean full) {

    /** The description the rows make. */
    public TableDescription description() {
        return record.description();
    }

    /** The table's key schema. */
    public KeySchema keySchema() {
        return description().keySchema();
    }

    /** The stamp an item write is checked against: the table's id and catalog version. */
    public CatalogStamp stamp() {
        return new CatalogStamp(tableId, catalogVersion);
    }

    /** The ordinal a new index takes: one past the highest in use. */
    public int nextOrdinal() {
        return indexes.stream().mapToInt(IndexRow::ordinal).max().orElse(-1) + 1;
    }
}

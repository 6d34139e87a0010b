package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.key.ScalarType;
import java.util.Optional;

/**
 * One {@code sp_indexes} row as the adapters use it: which relation holds the index's entries and how
 * its key is typed.
 *
 * @param ordinal      the index's place among the table's GSIs and LSIs (names its relation)
 * @param name         the index's name
 * @param global       a GSI (else an LSI)
 * @param relationName the relation holding its entries
 * @param pkType       its partition key's type
 * @param skType       its sort key's type, empty without a sort key
 */
public record IndexRow(int ordinal, String name, boolean global, String relationName, ScalarType pkType,
                       Optional<ScalarType> skType) {
}

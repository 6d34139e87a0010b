package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import java.util.Optional;

/** A base or index key as CQL values: {@code sk} is null for a key without a sort key. */
record CqlKey(Object pk, Object sk) {

    /** The CQL values of {@code key} under {@code schema}, the table's or an index's (checked by the core before). */
    static CqlKey of(CatalogRow row, KeySchema schema, Key key) {
        return new CqlKey(DataTables.cqlValue(DataTables.type(row, schema.partitionKey()), key.partition()),
                key.sort().map(v -> DataTables.cqlValue(DataTables.type(row, schema.sortKey().orElseThrow()), v))
                        .orElse(null));
    }

    /** The item key {@code key} of {@code row}'s table. */
    static CqlKey base(CatalogRow row, Key key) {
        return of(row, row.keySchema(), key);
    }

    /**
     * The item's key in {@code index}: the core's rule for a stored item (empty when it lacks an index key
     * attribute or holds one of another type or empty), so a backfill and an old version's entry agree
     * with what a put wrote.
     */
    static Optional<CqlKey> inIndex(CatalogRow row, TableDescription table, IndexDef index, Item item) {
        return ItemRules.entryKeyOfStoredItem(table, index.name(), item).map(k -> of(row, index.keySchema(), k));
    }

    Object[] values() {
        return sk == null ? new Object[] {pk} : new Object[] {pk, sk};
    }
}

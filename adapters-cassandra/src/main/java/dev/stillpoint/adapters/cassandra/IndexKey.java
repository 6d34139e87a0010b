package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;

/** An index key as CQL values: {@code sk} is null for a hash-only index. */
record IndexKey(Object pk, Object sk) {

    /**
     * The item's key in {@code index}, as CQL values: the core's rule for a stored item (empty when it
     * lacks an index key attribute or holds one of another type or empty), so a backfill and an old
     * version's entry agree with what a put wrote.
     */
    static Optional<IndexKey> of(CatalogRow row, TableDescription table, IndexDef index, Item item) {
        return ItemRules.entryKeyOfStoredItem(table, index.name(), item).map(k -> of(row, index, k));
    }

    /** The index key {@code key} of {@code index}, as CQL values. */
    static IndexKey of(CatalogRow row, IndexDef index, Key key) {
        KeySchema schema = index.keySchema();
        return new IndexKey(DataTables.cqlValue(DataTables.type(row, schema.partitionKey()), key.partition()),
                key.sort().map(v -> DataTables.cqlValue(DataTables.type(row, schema.sortKey().orElseThrow()), v))
                        .orElse(null));
    }

    List<Object> values() {
        return sk == null ? List.of(pk) : List.of(pk, sk);
    }
}

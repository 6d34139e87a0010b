package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;

/** A base key as CQL values: {@code sk} is null for a hash-only table. */
record BaseKey(Object pk, Object sk) {

    /** The CQL values of {@code key}, an item key of {@code row}'s table (checked by the core before). */
    static BaseKey of(CatalogRow row, Key key) {
        KeySchema schema = row.keySchema();
        Object pk = DataTables.cqlValue(DataTables.type(row, schema.partitionKey()), key.partition());
        Object sk = key.sort().map(s -> DataTables.cqlValue(DataTables.type(row, schema.sortKey().orElseThrow()), s))
                .orElse(null);
        return new BaseKey(pk, sk);
    }

    Object[] values() {
        return sk == null ? new Object[] {pk} : new Object[] {pk, sk};
    }
}

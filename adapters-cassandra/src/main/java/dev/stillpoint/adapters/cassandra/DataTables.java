package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.nio.ByteBuffer;

/**
 * The layout of a table's data in its account's keyspace, and how key values become CQL values.
 *
 * <p>Items table {@code t_<id>}: {@code pk} (the partition key), {@code sk} (the sort key, for a
 * composite key), {@code item text} (the item as DynamoDB JSON, {@link dev.stillpoint.itemjson.ItemJson}),
 * {@code rev bigint} (the item's revision, see {@link CassandraItems}); {@code PRIMARY KEY ((pk), sk)}.
 *
 * <p>Index table {@code t_<id>_g<rand>} / {@code _l<rand>}: {@code ipk} and {@code isk} (the index key),
 * {@code bpk} and {@code bsk} (the base key, so two items with one index key are two entries),
 * {@code item text} (the projected item); {@code PRIMARY KEY ((ipk), isk, bpk, bsk)}.
 *
 * <p>Key columns are typed by the attribute's declared type, so Cassandra's own clustering order is
 * the key order of [D2] inside a partition: S as {@code text}, which Cassandra 5.0 compares as
 * unsigned UTF-8 bytes ({@code UTF8Type} is a {@code BYTE_ORDER} type, checked in its bytecode and
 * by {@code KeyOrderInPartitionTest} against {@code KeyOrder.compare}: code point order, so a
 * surrogate pair sorts after U+FFFD, unlike Java's {@code String.compareTo}); N as {@code decimal},
 * compared by value ({@code DecimalType} compares {@code BigDecimal}s), written from the canonical
 * text [D3] so one value has one serialisation and so one partition-key hash; B as {@code blob},
 * unsigned bytes. Partitions themselves are in token (hash) order, which no key order is.
 */
final class DataTables {

    private DataTables() {
    }

    /** The CQL type of a key column of {@code type}. */
    static String cqlType(ScalarType type) {
        return switch (type) {
            case S -> "text";
            case N -> "decimal";
            case B -> "blob";
        };
    }

    /** The CQL value of a key attribute's value, which has its declared type (checked before). */
    static Object cqlValue(ScalarType type, AttributeValue value) {
        return switch (type) {
            case S -> ((AttributeValue.S) value).value();
            case N -> DynamoNumber.value(((AttributeValue.N) value).text());
            case B -> ByteBuffer.wrap(((AttributeValue.B) value).bytes());
        };
    }

    static String createItemsTable(CatalogRow row) {
        KeySchema key = row.keySchema();
        StringBuilder cql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(row.itemsTable()).append(" (pk ")
                .append(cqlType(type(row, key.partitionKey())));
        key.sortKey().ifPresent(s -> cql.append(", sk ").append(cqlType(type(row, s))));
        cql.append(", item text, rev bigint, PRIMARY KEY ((pk)");
        key.sortKey().ifPresent(s -> cql.append(", sk"));
        return cql.append(")) WITH comment = 'stillpoint items of table ").append(row.tableId()).append('\'').toString();
    }

    static String createIndexTable(CatalogRow row, IndexDef index) {
        KeySchema key = index.keySchema();
        KeySchema base = row.keySchema();
        StringBuilder cql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(row.qualified(index))
                .append(" (ipk ").append(cqlType(type(row, key.partitionKey())));
        key.sortKey().ifPresent(s -> cql.append(", isk ").append(cqlType(type(row, s))));
        cql.append(", bpk ").append(cqlType(type(row, base.partitionKey())));
        base.sortKey().ifPresent(s -> cql.append(", bsk ").append(cqlType(type(row, s))));
        cql.append(", item text, PRIMARY KEY ((ipk)");
        key.sortKey().ifPresent(s -> cql.append(", isk"));
        cql.append(", bpk");
        base.sortKey().ifPresent(s -> cql.append(", bsk"));
        return cql.append(")) WITH comment = 'stillpoint ").append(index.global() ? "global" : "local")
                .append(" index of table ").append(row.tableId()).append('\'').toString();
    }

    /** The declared type of a key attribute; a missing definition is a damaged catalog row. */
    static ScalarType type(CatalogRow row, String attribute) {
        return row.typeOf(attribute).orElseThrow(() -> StorageException.internal("table '" + row.tableName()
                + "' has no attribute definition for key attribute '" + attribute + "'", null));
    }
}

package dev.stillpoint.adapters.cassandra;

/**
 * Points inside an item write where this package's tests pause a writer to force the interleavings
 * the index rules exist for (see {@link CassandraItems}). Production runs {@link #NONE}; there is
 * no public way to set another.
 */
interface WriteHooks {

    /** After the write read the catalog row, before it reads or writes the item. */
    default void afterCatalogRead(String tableName) {
    }

    /** After the write read the item, before its conditional write. */
    default void beforeItemWrite(String tableName) {
    }

    /** After the item's conditional write was applied, before its index entries are written. */
    default void afterItemWrite(String tableName) {
    }

    WriteHooks NONE = new WriteHooks() {
    };
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import java.util.List;
import java.util.Optional;

/**
 * The steps of one unit of item work, in the order the core takes them: read each table's stamp (or
 * load it), then upsert and delete. The core decides what is written; an implementation only stores it.
 * A backend with transactions commits the unit's writes together when the unit ends normally and
 * rolls them all back when it ends with an exception.
 *
 * <p>The change log [I1]: when the table's description says it keeps one
 * ({@code description().changeLog().enabled()}), {@link #upsert} and {@link #delete} also record the
 * write in the table's log, in the same transaction as the write, so the record commits exactly when
 * the write does and a snapshot sees both or neither: a put or overwrite with its new image, a delete
 * that removed an item as a tombstone with its keys; each with the image it replaced or removed when the
 * setting is {@code NEW_AND_OLD_IMAGES}. Each record carries what orders it against the snapshot markers
 * of the backend [L5], so the changes between two markers are exactly the records a snapshot at the
 * second sees and one at the first does not. The core runs the write sequence the same way whether or
 * not the table keeps a log; recording it is the unit's. A backend that keeps no log refuses, at
 * CreateTable, a table that asks for one.
 */
public interface ItemUnit {

    /**
     * Whether the unit's writes commit together. False on a backend without multi-partition
     * transactions (Cassandra, a standalone MongoDB server): each write is applied when it is called.
     *
     * @return whether the writes are all or nothing
     */
    boolean atomic();

    /**
     * The stamps of the named tables' catalog rows, each row held until the unit ends so that no
     * definition change commits in between (where the backend can hold it), read together where the
     * backend can do so in one round trip. Only called when {@link ItemStorage#versionedCatalog()}.
     *
     * @param accountId the account the tables belong to
     * @param tableNames the tables, in the order to hold them (the core sorts them by name)
     * @return per table, in order, its stamp, or empty where the account has no such table
     * @throws UnsupportedOperationException by default: a backend that keeps no catalog version is never asked
     */
    default List<Optional<CatalogStamp>> stamps(String accountId, List<String> tableNames) {
        throw new UnsupportedOperationException("this backend's catalog keeps no stamps: the core loads the definition");
    }

    /**
     * Loads the table's definition in this unit.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the table, or empty when it has no catalog row
     */
    Optional<StorageTable> load(String accountId, String tableName);

    /**
     * Writes {@code write}'s item under its primary key, replacing any earlier version, and exactly the
     * index entries {@link ItemWrite#indexKeys()} names, the earlier version's entries removed.
     *
     * @param table the table, as this backend loaded it
     * @param write the checked item and its index keys
     */
    void upsert(StorageTable table, ItemWrite write);

    /**
     * Removes the item under {@code key} and its index entries; a missing item is no error.
     *
     * @param table the table, as this backend loaded it
     * @param key the item's primary key
     */
    void delete(StorageTable table, Key key);
}

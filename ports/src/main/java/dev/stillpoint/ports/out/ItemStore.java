package dev.stillpoint.ports.out;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Items as a backend keeps them. Each call is one unit of work that first reads the table's
 * definition (TableNotFound when it has no catalog row), then asks the core's {@code rules} what to
 * do with that definition, then does it: the rules run against the very definition the write is
 * applied under, so an index added meanwhile is either seen and maintained or not yet there. Any
 * exception the rules throw leaves storage untouched and reaches the caller as it is.
 */
public interface ItemStore {

    /**
     * Writes {@code rules(definition)}: the item under its primary key, replacing any earlier version,
     * and exactly the index entries {@link ItemWrite#indexKeys()} names (the earlier version's entries
     * removed), all or nothing where the backend has transactions.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the item rules, applied to the definition read in the same unit of work
     */
    void put(String accountId, String tableName, Function<TableDescription, ItemWrite> rules);

    /**
     * Removes the item under {@code rules(definition)} and its index entries; a missing item is no error.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the key rules, applied to the definition read in the same unit of work
     */
    void delete(String accountId, String tableName, Function<TableDescription, Key> rules);

    /**
     * The item under {@code rules(definition)}, as stored.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param rules the key rules, applied to the definition read in the same unit of work
     * @return the item, or empty when there is none under that key
     */
    Optional<Item> get(String accountId, String tableName, Function<TableDescription, Key> rules);

    /**
     * Applies a batch of puts and deletes over one or more tables [R7]. First, before anything is
     * written, reads every named table's definition (TableNotFound naming the first table without a
     * catalog row) and applies that table's {@code rules} to it; any exception from either leaves
     * storage untouched and reaches the caller as it is. Then applies every change returned, each as
     * {@link #put} or {@link #delete} would (item and index entries):
     * <ul>
     * <li>a backend with transactions applies all of them in the one unit of work that read the
     *     definitions, and returns an empty map or throws with nothing applied;</li>
     * <li>a backend without multi-partition transactions (Cassandra) applies them in order, table by
     *     table; when one fails after others were applied, it stops and returns the failed change and
     *     every later one, by table, in order (re-applying a put or delete is harmless). When the first
     *     change fails, it throws. It never returns an empty map for a batch it did not apply whole.</li>
     * </ul>
     *
     * @param accountId the account the tables belong to
     * @param rules per table name, the batch rules, applied to the definition read in the same unit of work
     * @return the changes not applied, by table name, in order; empty when every change was applied
     */
    Map<String, List<ItemChange>> write(String accountId, Map<String, Function<TableDescription, List<ItemChange>>> rules);
}

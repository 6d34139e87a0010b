package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;

/**
 * Restore's bulk path [B1]: the backend's own bulk load (PostgreSQL's COPY, SQLite's large transactions
 * with reused prepared statements) into a restoring table's base relation and index relations. The core
 * drives it: every item it hands over has already passed PutItem's rules against the restore's definition
 * and carries its key in each index that holds it, computed by the domain's rule ({@code ItemRules.forPut})
 * [V2]; the adapter only stores. A backend without such a path offers none, and its restore writes through
 * the units of item work as before.
 *
 * <p>Only a restore opens a load, and only on the table it created: CREATING with its restore in progress
 * [E4], so no other writer touches it (PutItem refuses a CREATING table) and it holds nothing but what this
 * load wrote. Whatever a load wrote stays unseen as a table until the core completes the restore; a load that
 * fails or whose process dies leaves the table CREATING, and the restore's removal (at once, or by the poller
 * after a restart) takes whatever was committed with it [E5].
 */
public interface BulkLoads {

    /**
     * Opens a load into the restoring table {@code table}.
     *
     * @param table the restoring table as its restore created it (CREATING, restore in progress)
     * @return the load; close it whether or not it finishes
     */
    BulkLoad open(TableDescription table);

    /**
     * How many loads of one restoring table may be open and written at once, each on its own connection and
     * transaction ({@code restore -j N}) [B3]: 1 (the default) where the backend has one writer (SQLite). Loads
     * of one table opened side by side never hold one key twice: the core's caller checks every key first [V4],
     * and the base relation's primary key still refuses a key two loads both wrote (VALIDATION). Each load is
     * made durable by its own {@link BulkLoad#finish()}; the table turns ACTIVE only after every one returned, and
     * until then a failure removes the table with whatever any of them committed [E5].
     *
     * @return at least 1
     */
    default int writers() {
        return 1;
    }
}

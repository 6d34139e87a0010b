package dev.stillpoint.ports.out;

import dev.stillpoint.domain.request.ItemWrite;
import java.util.List;

/**
 * One restore's bulk load into its table's relations (see {@link BulkLoads}). Writes may be buffered and
 * committed in large units or all at {@link #finish()}; nothing written is part of an ACTIVE table before
 * the core completes the restore after {@code finish} returned. The core keeps the load's life: it makes
 * one call at a time (a close from a shutdown hook waits for the write in progress), and after a failure, a
 * finish or a close it makes none but one close, so an implementation keeps no state of its own for that.
 */
public interface BulkLoad extends AutoCloseable {

    /**
     * Adds {@code items} to the table: each item under its primary key in the base relation, and exactly one
     * entry in each index relation named by {@link ItemWrite#indexKeys()}, none in the others. The table is new,
     * so nothing is replaced: a primary key written twice in one load is refused (VALIDATION naming the
     * table) rather than stored twice. After any failure the restore is abandoned: the core calls only
     * {@link #close()}.
     *
     * @param items items checked by the core, in any order
     */
    void write(List<ItemWrite> items);

    /**
     * Makes every item written so far durable in the table's relations (the last commit of the load). The core
     * completes the restore (ACTIVE) only after this returns, so the table is never ACTIVE without its items.
     */
    void finish();

    /**
     * Ends the load: whatever was not made durable by {@link #finish()} or an earlier commit is discarded,
     * and every connection and lock the load held is given back (so DeleteTable's drop of the table is not
     * held up by it). Called once, after a finish, a failure or neither; never throws for a load that failed.
     */
    @Override
    void close();
}

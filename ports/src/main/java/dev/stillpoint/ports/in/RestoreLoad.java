package dev.stillpoint.ports.in;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;

/**
 * One running restore [E4, E5]: the only way items reach its table while it is CREATING (a PutItem from
 * elsewhere is refused as on any CREATING table). Each write renews the restore's sign of life; a restore
 * that gives none for the backend's {@code restoreIdleLimit} is taken for dead and its table removed.
 * Close it in every case: unless completed, closing removes the table.
 */
public interface RestoreLoad extends AutoCloseable {

    /**
     * The new table as created.
     *
     * @return its description: CREATING, {@code restoreSummary().restoreInProgress()} true
     */
    TableDescription table();

    /**
     * Writes {@code items}, each checked as PutItem checks it [R3, R4] and written with its index
     * entries; a refused item names its place in {@code items} and leaves the ones before it written
     * (on a backend with a bulk path [B1], every item of the call is checked before any is written, so a
     * refusal leaves the earlier calls' items and none of this call's). Written items may stay unseen in
     * the table's relations until {@link #complete()}: a bulk load may commit them only then. A restore
     * writes each key once: on a backend with a bulk path a repeated key fails the load VALIDATION,
     * elsewhere the later item replaces the earlier, so a caller whose input may repeat a key decides
     * first, as the backup module's check does (refuse both lines, or load only the last [V4]).
     *
     * @param items any number of items (none is fine)
     */
    void write(List<Item> items);

    /**
     * How many threads may call {@link #write} at once ({@code restore -j N}) [B3]: 1 (the default) unless the
     * backend's bulk path has more than one writer for one restoring table (PostgreSQL: one COPY connection per
     * thread). Writes beyond this many at once wait for one to end. {@link #complete()} comes after every write
     * has returned.
     *
     * @return at least 1
     */
    default int concurrentWriters() {
        return 1;
    }

    /**
     * Ends the restore: the table turns ACTIVE and its summary no longer in progress (the restore time kept).
     *
     * @return the table's description after
     */
    TableDescription complete();

    /** Unless completed, deletes the table (abandoned) through DeleteTable's path; idempotent. */
    @Override
    void close();
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The catalog as a restore needs it [E4, E5]: a restoring row (status CREATING, its restore record in
 * progress, its stamp "alive until" in the row's due time), its renewal, its completion, and the
 * restoring rows a poller pass looks at. A row the adapter reads back maps to
 * {@code TableState.Restoring(aliveUntil)} while its restore is in progress.
 */
public interface RestoreStore {

    /**
     * The table's row, if it has one.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the row, or empty
     */
    Optional<TableRecord> find(String accountId, String tableName);

    /**
     * Writes the row CREATING with {@code summary} (in progress) and the stamp {@code aliveUntil}, and
     * creates its data relations, in one unit of work. ResourceInUse when a row of that name appeared meanwhile.
     *
     * @param request the checked definition of the new table
     * @param summary the restore summary, in progress
     * @param aliveUntil until when the restore vouches that it runs
     * @return the CREATING table's description, with the summary
     */
    TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil);

    /**
     * Sets a restoring row's stamp; false when the row of {@code tableId} is no longer restoring.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param tableId the restored table instance's id
     * @param aliveUntil the new stamp
     * @return true when the row was restoring and carries the new stamp
     */
    boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil);

    /**
     * Sets a restoring row ACTIVE and its restore no longer in progress, in one unit of work; false
     * when the row of {@code tableId} is no longer restoring. The row's ItemCount and TableSizeBytes are
     * recorded as the statistics pass would count them, counted while the table is still restoring, so the
     * first description of the ACTIVE table carries them (not 0 until the next pass).
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param tableId the restored table instance's id
     * @return true when the row was restoring and is now ACTIVE
     */
    boolean completeRestore(String accountId, String tableName, String tableId);

    /**
     * Every restoring row.
     *
     * @return the rows, each with its {@code TableState.Restoring} state
     */
    List<PendingTransition> restoringTables();
}

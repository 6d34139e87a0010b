package dev.stillpoint.ports.out;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The catalog as the core's table operations read it, and the steps of the one catalog change that copies
 * data: a new GSI, whose algorithm (page, compute each entry, write, mark ACTIVE) is the core's; and the
 * switch of a table's change log [I1].
 */
public interface TableCatalog {

    /**
     * The table's description as stored, whatever its state; empty when it has no catalog row.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the description, or empty
     */
    Optional<TableDescription> describe(String accountId, String tableName);

    /**
     * Every table name of the account, DELETING ones included, in any order: the core sorts them.
     *
     * @param accountId the account whose tables to list
     * @return the table names
     */
    List<String> tableNames(String accountId);

    /**
     * Runs {@code work}, the core's addition of a GSI, over this backend's {@link IndexBuild}: on a
     * backend whose build is atomic, in one unit of work, committed when it returns and rolled back when
     * it throws; elsewhere each step is applied when called. The exception reaches the caller as it is, or
     * mapped to a {@code StorageException} when the backend's own failed.
     *
     * @param doing what the work is, for error messages
     * @param work the build's work
     * @param <T> the work's result type
     * @return the work's result
     */
    <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> work);

    /**
     * Switches the table's change log [I1] to the setting {@code decide} answers for the table as stored, in
     * one unit of work that holds the table's catalog row against every item write (as an atomic index build
     * holds it), so each write is logged under the setting it committed beside: switching on starts the log
     * at this unit's instant (a marker from before it is refused [I4]); switching off discards the log's
     * records. Where the answer is the stored setting, nothing is written and the log is kept.
     *
     * <p>The default is a backend's that keeps no change log: it answers an unchanged setting and refuses
     * any other, UNSUPPORTED.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param decide the core's rules, given the stored definition: the setting to store, or a refusal
     * @return the table's description with the setting
     * @throws StorageException TABLE_NOT_FOUND without a catalog row; what {@code decide} throws; UNSUPPORTED
     *     (the default) for a change on a backend without the log
     */
    default TableDescription switchChangeLog(String accountId, String tableName,
                                             Function<TableDescription, ChangeLog> decide) {
        TableDescription before = describe(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
        ChangeLog setting = decide.apply(before);
        if (setting != before.changeLog()) {
            setting.requireOffOn("this backend", tableName);
        }
        return before;
    }
}

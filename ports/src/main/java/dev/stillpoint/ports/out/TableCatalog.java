package dev.stillpoint.ports.out;

import dev.stillpoint.domain.table.TableDescription;
import java.util.List;
import java.util.Optional;

/**
 * The catalog as the core's table operations read it, and the steps of the one catalog change that copies
 * data: a new GSI, whose algorithm (page, compute each entry, write, mark ACTIVE) is the core's.
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
     * Every table name of the account, DELETING ones included, in name order (UTF-8 byte order).
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
}

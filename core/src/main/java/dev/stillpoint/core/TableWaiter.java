package dev.stillpoint.core;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a table to become ACTIVE, or to be gone, as the AWS SDK's {@code tableExists} and
 * {@code tableNotExists} waiters do: DescribeTable polled with a growing pause (20 ms doubling to
 * 250 ms), so a table the control plane activates after its 0.25 s delay, or a drop it completes
 * about a second after the last reader let go, is seen within a poll of it.
 */
public final class TableWaiter {

    private static final Duration FIRST_PAUSE = Duration.ofMillis(20);
    private static final Duration LONGEST_PAUSE = Duration.ofMillis(250);

    private TableWaiter() {
    }

    /**
     * The table's description once it is ACTIVE. A table that is DELETING is ResourceInUse at once, a
     * missing one TableNotFound; still CREATING after {@code timeout} is Transient, naming the wait.
     *
     * @param tables the table operations to poll
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param timeout the longest to wait for ACTIVE
     * @return the ACTIVE table's description
     */
    public static TableDescription awaitActive(TableOperations tables, String accountId, String tableName,
                                               Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Duration pause = FIRST_PAUSE;
        while (true) {
            TableDescription d = tables.describeTable(accountId, tableName);
            if (d.status() == TableStatus.ACTIVE) {
                return d;
            }
            if (d.status() == TableStatus.DELETING) {
                throw StorageException.resourceInUse("table '" + tableName + "' is DELETING; it will not become ACTIVE");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' is still "
                        + d.status().name() + " after waiting " + timeout.toMillis() + " ms for it to become ACTIVE");
            }
            LockSupport.parkNanos(pause.toNanos());
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new StorageException(ErrorReason.TRANSIENT, "waiting for table '" + tableName
                        + "' to become ACTIVE was interrupted");
            }
            pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
    }

    /**
     * Returns once DescribeTable answers TableNotFound: the table's data and catalog row are gone
     * (a DeleteTable deferred behind an open snapshot completes about a second after it is closed
     * [D5, D8]). Still there after {@code timeout} is Transient, naming the wait and the status seen.
     *
     * @param tables the table operations to poll
     * @param accountId the account the table belonged to
     * @param tableName the table's name
     * @param timeout the longest to wait for the table to be gone
     */
    public static void awaitDeleted(TableOperations tables, String accountId, String tableName, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Duration pause = FIRST_PAUSE;
        while (true) {
            TableDescription d;
            try {
                d = tables.describeTable(accountId, tableName);
            } catch (StorageException e) {
                if (e.reason() == ErrorReason.TABLE_NOT_FOUND) {
                    return;
                }
                throw e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' is still "
                        + d.status().name() + " after waiting " + timeout.toMillis() + " ms for it to be deleted");
            }
            LockSupport.parkNanos(pause.toNanos());
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new StorageException(ErrorReason.TRANSIENT, "waiting for table '" + tableName
                        + "' to be deleted was interrupted");
            }
            pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
    }
}

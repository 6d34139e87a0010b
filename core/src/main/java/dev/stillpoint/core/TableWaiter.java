package dev.stillpoint.core;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a table to become ACTIVE, as the AWS SDK's {@code tableExists} waiter does: DescribeTable
 * polled with a growing pause (20 ms doubling to 250 ms), so a table the control plane activates after
 * its 0.25 s delay is seen within a poll of it.
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
}

package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableState;

/**
 * A table the poller must look at: CREATING (to activate) or DELETING (to drop).
 *
 * @param accountId the owning account
 * @param tableName the table
 * @param state     its lifecycle state as the row encodes it
 */
public record PendingTransition(String accountId, String tableName, TableState state) {
}

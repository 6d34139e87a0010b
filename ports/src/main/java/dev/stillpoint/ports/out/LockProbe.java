package dev.stillpoint.ports.out;

import java.util.List;

/**
 * Who holds what on a table's relations: the operator's view of why a DeleteTable was deferred
 * [P10]. Backends without relation locks (MongoDB, Cassandra, SQLite under WAL) answer empty.
 */
public interface LockProbe {

    /**
     * Every lock another session holds on any relation of the table; TableNotFound without a row.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the holds, empty when nothing holds the table
     */
    List<RelationHold> holders(String accountId, String tableName);
}

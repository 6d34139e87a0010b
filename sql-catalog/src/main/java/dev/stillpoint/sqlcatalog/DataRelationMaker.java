package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.key.ScalarType;
import java.util.Optional;

/**
 * How an adapter makes the data relations a new catalog row names, in its own storage: on the catalog's
 * transaction (SQLite, PostgreSQL's shared layout) or on the data transaction that commits first
 * (PostgreSQL's separate layout). {@link TableInserts} decides the names and types; the adapter only makes them.
 */
public interface DataRelationMaker {

    /**
     * Creates the base relation {@code name} of a table keyed by {@code pk} and {@code sk}.
     *
     * @param name the relation's name
     * @param pk   the table's partition key type
     * @param sk   its sort key type, empty without a sort key
     */
    void createBase(RelationName name, ScalarType pk, Optional<ScalarType> sk);

    /**
     * Creates the relation holding the entries of index {@code index} of a table keyed by {@code tablePk}
     * and {@code tableSk} (an entry names its base item by the table's key).
     *
     * @param index   the index's row, its relation and key types among it
     * @param tablePk the table's partition key type
     * @param tableSk its sort key type, empty without a sort key
     */
    void createIndex(IndexRow index, ScalarType tablePk, Optional<ScalarType> tableSk);

    /**
     * Creates the change log of table {@code tableId} [I1] with its START row, in the transaction that
     * creates the table, so every snapshot of the ACTIVE table sees the log's start [I4].
     *
     * @param tableId the table's id
     * @param pk      the table's partition key type
     * @param sk      its sort key type, empty without a sort key
     */
    void createChangeLog(String tableId, ScalarType pk, Optional<ScalarType> sk);
}

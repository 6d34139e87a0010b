package dev.stillpoint.adapters.postgres.engine;

import java.sql.Connection;
import java.sql.SQLException;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * One read-write transaction over the catalog and the data. On the shared layout it is one
 * connection and one transaction; on the separate layout a catalog transaction, and a data
 * transaction begun when first needed (the catalog connection is always borrowed first).
 * {@link #commit()} commits the data first, then the catalog: a relation a CreateTable or
 * UpdateTable made exists before its row does, so no row ever names a missing relation.
 */
final class Transaction implements AutoCloseable {

    private static final Settings SETTINGS = new Settings().withExecuteLogging(false);

    private final Pools pools;
    private final Connection catalog;
    private Connection data;

    private Transaction(Pools pools, Connection catalog) {
        this.pools = pools;
        this.catalog = catalog;
        if (pools.shared()) {
            this.data = catalog;
        }
    }

    /** Borrows the catalog connection and begins its transaction. */
    static Transaction begin(Pools pools) throws SQLException {
        Connection c = pools.catalog();
        try {
            TransactionStatements.begin(c);
        } catch (SQLException | RuntimeException e) {
            TransactionStatements.release(c);
            throw e;
        }
        return new Transaction(pools, c);
    }

    static DSLContext dsl(Connection c) {
        return DSL.using(c, SQLDialect.POSTGRES, SETTINGS);
    }

    DSLContext catalog() {
        return dsl(catalog);
    }

    Connection catalogConnection() {
        return catalog;
    }

    /** The data transaction (the catalog's own on the shared layout), begun on first use. */
    DSLContext data() throws SQLException {
        return dsl(dataConnection());
    }

    Connection dataConnection() throws SQLException {
        if (data == null) {
            Connection c = pools.data();
            try {
                TransactionStatements.begin(c);
            } catch (SQLException | RuntimeException e) {
                TransactionStatements.release(c);
                throw e;
            }
            data = c;
        }
        return data;
    }

    /** Whether a data transaction of its own (separate layout) was begun. */
    boolean hasData() {
        return data != null && data != catalog;
    }

    /** Separate layout: rolls the data transaction back and gives its connection back. */
    void rollbackData() {
        if (hasData()) {
            TransactionStatements.release(data);
            data = null;
        }
    }

    /** Separate layout: commits the data transaction alone. */
    void commitData() throws SQLException {
        if (hasData()) {
            TransactionStatements.commit(data);
        }
    }

    /** Commits the data transaction, then the catalog transaction. */
    void commit() throws SQLException {
        if (data != null && data != catalog) {
            TransactionStatements.commit(data);
        }
        TransactionStatements.commit(catalog);
    }

    @Override
    public void close() {
        if (data != null && data != catalog) {
            TransactionStatements.release(data);
        }
        // Release rolls back whatever was not committed.
        TransactionStatements.release(catalog);
    }

}

package dev.stillpoint.adapters.postgres.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * The adapter's two ways to touch the databases, in one place: a read-write {@link Transaction} committed
 * data first, then catalog, or an auto-commit read on a catalog connection. Every failure leaves as
 * a mapped {@code StorageException} ({@link PgFailures}).
 */
public final class Transactions {

    private final Pools pools;

    public Transactions(Pools pools) {
        this.pools = pools;
    }

    Pools pools() {
        return pools;
    }

    /** A body run in one {@link Transaction}: the catalog's and (lazily) the data's. */
    @FunctionalInterface
    interface InTransaction<T> {
        T apply(Transaction work) throws SQLException;
    }

    /** Runs {@code body} in one transaction and commits it (data first, then catalog); rolled back on any failure. */
    <T> T inTransaction(String doing, InTransaction<T> body) {
        try (Transaction work = Transaction.begin(pools)) {
            T result = body.apply(work);
            work.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }

    /** Runs {@code body} on a catalog connection in auto-commit mode (each statement its own snapshot). */
    <T> T read(String doing, Function<DSLContext, T> body) {
        try (Connection c = pools.catalog()) {
            return body.apply(Transaction.dsl(c));
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }
}

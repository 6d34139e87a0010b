package dev.stillpoint.adapters.postgres.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * The adapter's two ways to touch the databases, in one place: a read-write {@link Work} committed
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

    /** Work on one catalog and (lazily) one data transaction. */
    @FunctionalInterface
    interface InWork<T> {
        T apply(Work work) throws SQLException;
    }

    /** Runs {@code body} in one unit of work and commits it (data first, then catalog); rolled back on any failure. */
    <T> T inWork(String doing, InWork<T> body) {
        try (Work work = Work.begin(pools)) {
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
            return body.apply(Work.dsl(c));
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }
}

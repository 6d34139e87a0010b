package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.TableLoads;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Restore's bulk path on PostgreSQL [B1]: {@code COPY ... FROM STDIN} in text format through pgjdbc's
 * {@link CopyManager}, into the restoring table's base relation and each of its index relations, both
 * layouts (the relations live in the data database). A load is ONE data transaction on one borrowed data
 * connection, committed by {@link BulkLoad#finish()}: rows are kept per relation in a {@link CopyText}
 * buffer (one connection has one COPY open at a time, so rows wait for their relation's turn) and, once
 * the buffers together pass {@link #FLUSH_BYTES}, sent as one COPY per relation, so the number of
 * statements does not follow the caller's batch size and a load holds at most {@link #FLUSH_BYTES} of rows
 * plus one item's, whatever the number of indexes. (A budget of 8 MiB per relation held 16 MiB of rows per
 * load for a table with one GSI, twice that in buffer capacity, and {@code restore -j 2} of a 120,000-item
 * export ran out of a 48 MiB heap; 2 MiB a load restores as fast, BENCHMARKS.md.) Until the commit nothing
 * is visible, and a failure, a close or a killed process leaves the relations as they were created: empty,
 * their table CREATING, removed by the restore's close or by the poller [E5].
 *
 * <p>Each index entry is the item's key in that index as the core computed it with the domain's rule
 * ({@link ItemWrite#indexKeys()}), written once; the base relation's primary key refuses a key written
 * twice (unique_violation, answered VALIDATION naming the table).
 *
 * <p>{@code restore -j N} opens up to {@link #writers()} loads of one table side by side [B3], each its own
 * connection and transaction; the primary key refuses a key two of them wrote, whichever commits second.
 */
public final class PgBulkLoads implements BulkLoads {

    /** Every relation's rows are sent once the load's buffers together hold this many bytes (and at finish). */
    public static final int FLUSH_BYTES = 2 << 20;
    private static final DSLContext RENDER = DSL.using(SQLDialect.POSTGRES);

    private final Transactions tx;
    private final Runnable copyHook;

    /**
     * Loads over {@code tx}'s pools.
     *
     * @param tx the adapter's transactions (the catalog read, the data pool)
     * @param copyHook run while each COPY is open, after its rows were sent: a test's pause, else nothing
     */
    public PgBulkLoads(Transactions tx, Runnable copyHook) {
        this.tx = tx;
        this.copyHook = copyHook;
    }

    @Override
    public BulkLoad open(TableDescription table) {
        String doing = "opening the bulk load of the restore into table '" + table.tableName() + "'";
        CatalogRows.Loaded loaded = new CatalogRows.Loaded(
                tx.read(doing, ctx -> TableLoads.restoring(ctx, table, doing)));
        List<Target> targets = new ArrayList<>();
        targets.add(new Target(null, loaded.base()));
        for (IndexRow index : loaded.row().indexes()) {
            targets.add(new Target(index.name(), loaded.index(index)));
        }
        Connection c;
        try {
            c = tx.pools().data();
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        try {
            TransactionStatements.begin(c);
            return new Load(table.tableName(), c, c.unwrap(PGConnection.class).getCopyAPI(), targets);
        } catch (SQLException | RuntimeException e) {
            TransactionStatements.release(c);
            throw PgFailures.map(doing, e);
        }
    }

    /**
     * Half the data pool, as snapshots may hold [D7]: each load of {@code restore -j N} holds one data
     * connection and its own transaction until its finish, and the other half stays for everything else.
     */
    @Override
    public int writers() {
        return Math.max(1, tx.pools().dataPoolSize() / 2);
    }

    /** One relation of the load: its COPY statement and the rows not yet sent. */
    private static final class Target {
        final String indexName;
        final String copy;
        final CopyText rows = new CopyText();

        Target(String indexName, RelationLayout layout) {
            this.indexName = indexName;
            this.copy = "COPY " + RENDER.render(layout.relation().table()) + " ("
                    + layout.fields().stream().map(f -> RENDER.render(DSL.name(f.getName()))).collect(Collectors.joining(", "))
                    + ") FROM STDIN";
        }
    }

    private final class Load implements BulkLoad {
        private final String tableName;
        private final Connection connection;
        private final CopyManager copies;
        private final List<Target> targets;

        Load(String tableName, Connection connection, CopyManager copies, List<Target> targets) {
            this.tableName = tableName;
            this.connection = connection;
            this.copies = copies;
            this.targets = targets;
        }

        @Override
        public void write(List<ItemWrite> items) {
            try {
                Target base = targets.get(0);
                for (ItemWrite write : items) {
                    List<Object> key = ItemKeys.of(write.key()).values();
                    String json = ItemJson.encode(write.item());
                    key.forEach(base.rows::keyColumn);
                    base.rows.lastColumn(json);
                    for (int i = 1; i < targets.size(); i++) {
                        Target index = targets.get(i);
                        Optional<Key> entry = write.indexKey(index.indexName);
                        if (entry.isPresent()) {
                            ItemKeys.of(entry.get()).values().forEach(index.rows::keyColumn);
                            key.forEach(index.rows::keyColumn);
                            index.rows.lastColumn(json);
                        }
                    }
                    if (held() >= FLUSH_BYTES) {
                        for (Target t : targets) {
                            send(t);
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                throw fail("writing " + items.size() + " items", e);
            }
        }

        @Override
        public void finish() {
            try {
                for (Target t : targets) {
                    send(t);
                }
                TransactionStatements.commit(connection);
            } catch (SQLException | RuntimeException e) {
                throw fail("committing the load", e);
            }
            TransactionStatements.release(connection);
        }

        /** Rolls back whatever is open (after a finish: nothing) and gives the connection back, if not given yet. */
        @Override
        public void close() {
            TransactionStatements.release(connection);
        }

        /** The bytes of rows the load's buffers hold, not sent yet. */
        private long held() {
            long bytes = 0;
            for (Target t : targets) {
                bytes += t.rows.size();
            }
            return bytes;
        }

        /** Sends {@code target}'s rows as one COPY, in the load's transaction. */
        private void send(Target target) throws SQLException {
            if (target.rows.rows() == 0) {
                return;
            }
            CopyIn in = copies.copyIn(target.copy);
            try {
                in.writeToCopy(target.rows.bytes(), 0, target.rows.size());
                in.flushCopy();
                copyHook.run();
                in.endCopy();
            } finally {
                if (in.isActive()) {
                    in.cancelCopy();
                }
            }
            target.rows.clear();
        }

        private StorageException fail(String doing, Exception e) {
            String what = doing + " into table '" + tableName + "'";
            if ("23505".equals(PgFailures.sqlState(e))) {
                return new StorageException(ErrorReason.VALIDATION, what + ": two items with one primary key"
                        + " (unique_violation); a restore writes each key once", e);
            }
            return PgFailures.map(what, e);
        }
    }
}

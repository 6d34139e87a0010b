package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Restore's bulk path on Cassandra [B1]: bounded concurrent asynchronous writes instead of one write at a
 * time. A restoring table is CREATING, so no other writer touches it [E4] and an item needs neither the
 * read of its old version nor the catalog's second look that {@link CassandraItems} makes: each item is one
 * plain {@code INSERT} (at a write timestamp below any later write's, {@link ItemStatements#restoreItem}) and
 * each of its index entries, whose keys the core computed, one insert at the load's revision. At most
 * {@link #IN_FLIGHT} statements are outstanding; a write returns when all of its statements are answered, so
 * a failure breaks the load before the next write. A key written twice is found at {@code finish}, without a
 * set of every key in memory: the table then holds fewer items than the load wrote, and the load is refused.
 * An {@code INSERT ... IF NOT EXISTS} per item found it at once but cost a lightweight transaction each: the
 * restore ran at 0.11 of plain inserts' speed, and on a just-started node it timed out (CassandraRestoreBulkBench).
 * Every statement is acknowledged at the session's consistency level before {@code write} returns.
 */
final class CassandraBulkLoads implements BulkLoads {

    /** Statements outstanding at once: enough to keep a node busy, few enough not to time its queue out. */
    static final int IN_FLIGHT = 64;

    private final Cql cql;
    private final CatalogStore catalog;
    private final IndexEntries entries;
    private final CassandraConfig config;

    CassandraBulkLoads(Cql cql, CatalogStore catalog, IndexEntries entries, CassandraConfig config) {
        this.cql = cql;
        this.catalog = catalog;
        this.entries = entries;
        this.config = config;
    }

    @Override
    public BulkLoad open(TableDescription table) {
        CatalogRow row = catalog.find(table.accountId(), table.tableName())
                .filter(r -> r.tableId().equals(table.tableId()))
                .orElseThrow(() -> StorageException.tableNotFound(table.tableName()));
        Instant now = config.time().now();
        // One revision for the load: every later write of an item takes a revision above it (a clock reading).
        long rev = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000L);
        return new Load(row, rev);
    }

    private final class Load implements BulkLoad {
        private final CatalogRow row;
        private final long rev;
        private final Semaphore slots = new Semaphore(IN_FLIGHT);
        private final AtomicReference<StorageException> failure = new AtomicReference<>();
        // The core makes one call at a time on a load (GuardedBulkLoad), and writers() is 1: one load a table.
        private long written;
        private long writtenBytes;

        Load(CatalogRow row, long rev) {
            this.row = row;
            this.rev = rev;
        }

        @Override
        public void write(List<ItemWrite> items) {
            try {
                for (ItemWrite write : items) {
                    if (failure.get() != null) {
                        break;
                    }
                    CqlKey key = CqlKey.base(row, write.key());
                    String json = ItemJson.encode(write.item());
                    send(cql.bind("restoring an item of '" + row.tableName() + "'", ItemStatements.restoreItem(row),
                            ItemStatements.values(key, json, rev)));
                    written++;
                    writtenBytes += json.length();
                    for (Map.Entry<String, Key> entry : write.indexKeys().entrySet()) {
                        IndexDef index = row.index(entry.getKey()).orElseThrow(() -> StorageException.internal(
                                "table '" + row.tableName() + "' has no index '" + entry.getKey() + "' to restore into", null));
                        send(entries.insert(row, index, CqlKey.of(row, index.keySchema(), entry.getValue()), key,
                                write.item(), rev));
                    }
                }
                slots.acquireUninterruptibly(IN_FLIGHT);
                slots.release(IN_FLIGHT);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, DriverFailures.map("restoring into table '" + row.tableName() + "'", e));
                // Wait for what was sent, so nothing of this write is still running when the caller sees it fail.
                slots.acquireUninterruptibly(IN_FLIGHT);
                slots.release(IN_FLIGHT);
            }
            requireNotBroken();
        }

        /** Sends {@code statement} once a slot is free; the answer frees it. */
        private void send(BoundStatement statement) {
            slots.acquireUninterruptibly();
            CompletionStage<AsyncResultSet> answer;
            try {
                answer = cql.session().executeAsync(statement);
            } catch (RuntimeException e) {
                slots.release();
                throw e;
            }
            answer.whenComplete((rs, error) -> {
                try {
                    if (error != null) {
                        failure.compareAndSet(null, DriverFailures.map("restoring into table '" + row.tableName() + "'",
                                error));
                    }
                } finally {
                    slots.release();
                }
            });
        }

        /**
         * Every write waited for its statements and failed if one did, so what was written is durable; the
         * table's items are counted (keys only, in pages sized by the items written, {@link SizedRows}): fewer
         * than were written means a key came twice.
         */
        @Override
        public void finish() {
            requireNotBroken();
            String doing = "counting the items restored into table '" + row.tableName() + "'";
            long held = 0;
            try {
                // Keys only, but the node reads each whole row: pages sized by the items this load wrote.
                long rowBytes = written == 0 ? 1 : Math.max(1, writtenBytes / written);
                for (Row ignored : cql.readSized(doing, r -> rowBytes, ItemStatements.selectKeys(row))) {
                    held++;
                }
            } catch (RuntimeException e) {
                throw DriverFailures.map(doing, e);
            }
            if (held != written) {
                throw StorageException.validation("restore into table '" + row.tableName() + "': " + written
                        + " items were written but the table holds " + held + ", so a key was written twice; a restored"
                        + " table holds each key once [B1]");
            }
        }

        @Override
        public void close() {
            // Nothing is outstanding (see finish); what was written goes with the table when the restore is removed [E5].
        }

        private void requireNotBroken() {
            StorageException broken = failure.get();
            if (broken != null) {
                throw new StorageException(broken.reason(), "the bulk load into table '" + row.tableName()
                        + "' failed: " + broken.getMessage(), broken);
            }
        }
    }
}

package dev.stillpoint.cli;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.ports.in.TableOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The demo's concurrent writer: overwrites, deletes and inserts items flat out on its own thread,
 * recording every committed write with its kind, key, the item written and when its call returned.
 */
final class DemoWriter implements Runnable {

    enum Kind { OVERWRITE, DELETE, INSERT }

    /** One committed write; {@code item} is null for a delete. */
    record Write(long seq, Kind kind, String keyId, Key key, Item item, long returnedAtNanos) {
    }

    private final TableOperations tables;
    private final String account;
    private final String table;
    private final KeySchema schema;
    private final List<Item> loaded;
    private final Random random;
    private final List<Write> writes = new ArrayList<>();
    private final AtomicLong committed = new AtomicLong();
    private final Thread thread;
    private volatile boolean stop;
    private volatile RuntimeException failure;

    DemoWriter(TableOperations tables, String account, String table, KeySchema schema, List<Item> loaded, long seed) {
        this.tables = tables;
        this.account = account;
        this.table = table;
        this.schema = schema;
        this.loaded = loaded;
        this.random = new Random(seed);
        this.thread = new Thread(this, "stillpoint-demo-writer");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        long seq = 0;
        try {
            while (!stop) {
                seq++;
                Item base = loaded.get(random.nextInt(loaded.size()));
                int dice = random.nextInt(4);
                Write w;
                if (dice < 2) {
                    Item item = base.with("version", AttributeValue.N.of(Long.toString(seq)))
                            .with("payload", new AttributeValue.S("overwritten by write #" + seq));
                    tables.putItem(account, table, item);
                    w = write(seq, Kind.OVERWRITE, item);
                } else if (dice == 2) {
                    Key key = Key.of(base, schema);
                    // DeleteItem takes exactly the key attributes, as a request names them [V3].
                    tables.deleteItem(account, table, key.sort()
                            .map(s -> RequestKey.of(schema.partitionKey(), key.partition(), schema.sortKey().orElseThrow(), s))
                            .orElseGet(() -> RequestKey.of(schema.partitionKey(), key.partition())));
                    w = new Write(seq, Kind.DELETE, DemoData.keyId(base, schema), key, null, System.nanoTime());
                } else {
                    Item item = base.with("sk", AttributeValue.N.of(Long.toString(1_000_000 + seq)))
                            .with("version", AttributeValue.N.of(Long.toString(seq)))
                            .with("payload", new AttributeValue.S("inserted by write #" + seq));
                    tables.putItem(account, table, item);
                    w = write(seq, Kind.INSERT, item);
                }
                synchronized (writes) {
                    writes.add(w);
                }
                committed.incrementAndGet();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private Write write(long seq, Kind kind, Item item) {
        return new Write(seq, kind, DemoData.keyId(item, schema), Key.of(item, schema), item, System.nanoTime());
    }

    /** Writes committed so far. */
    long committed() {
        return committed.get();
    }

    /** Waits (bounded) until at least {@code target} writes committed or the writer ended. */
    void awaitCommitted(long target, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (committed.get() < target && thread.isAlive() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(50_000);
        }
    }

    /** Stops the writer and waits for its last write. */
    void stop() {
        stop = true;
        if (thread.isAlive() || thread.getState() != Thread.State.NEW) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every committed write, in commit order (valid after {@link #stop}). */
    List<Write> writes() {
        synchronized (writes) {
            return List.copyOf(writes);
        }
    }

    /** The first error the writer met, if any. */
    RuntimeException failure() {
        return failure;
    }
}

package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Test tables: names, shapes, and waiting for a status by polling with a bounded pause. */
public final class Tables {

    public static final String ACCOUNT = "acct";

    private Tables() {
    }

    public static String uniqueName(String label) {
        return label + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    /** pk S, sk N, one GSI on g (S) and one LSI on l (S). */
    public static CreateTableRequest withIndexes(String name) {
        return new CreateTableRequest(ACCOUNT, name, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("l", ScalarType.S)),
                List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                List.of(new LocalSecondaryIndex("by_l", KeySchema.composite("pk", "l"), Projection.all(), 0, 0)),
                Optional.empty());
    }

    /** pk S only, no index. */
    public static CreateTableRequest hashOnly(String name) {
        return new CreateTableRequest(ACCOUNT, name, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty());
    }

    public static Item item(String pk, int sk, String g, String l) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.n(Integer.toString(sk)),
                "g", AttributeValue.s(g), "l", AttributeValue.s(l), "v", AttributeValue.s("value " + pk + "/" + sk)));
    }

    public static Item hashItem(String pk) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "v", AttributeValue.s("value " + pk)));
    }

    /** Creates the table and waits until it is ACTIVE. */
    public static TableDescription createActive(TableOperations tables, CreateTableRequest request) {
        tables.createTable(request);
        return awaitStatus(tables, request.tableName(), TableStatus.ACTIVE, Duration.ofSeconds(30));
    }

    public static TableDescription awaitStatus(TableOperations tables, String name, TableStatus status, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        TableDescription last = tables.describeTable(ACCOUNT, name);
        while (last.status() != status) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("table '" + name + "' is still " + last.status() + " after " + deadline);
            }
            pause(Duration.ofMillis(10));
            last = tables.describeTable(ACCOUNT, name);
        }
        return last;
    }

    /** Waits until the table has no row any more; returns how long that took. */
    public static Duration awaitGone(TableOperations tables, String name, Duration deadline) {
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        while (exists(tables, name)) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("table '" + name + "' still exists after " + deadline);
            }
            pause(Duration.ofMillis(5));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    public static boolean exists(TableOperations tables, String name) {
        try {
            tables.describeTable(ACCOUNT, name);
            return true;
        } catch (StorageException e) {
            if (e.reason() == dev.stillpoint.domain.error.ErrorReason.TABLE_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** A bounded pause between polls (a latch nobody counts down), never a stand-in for a signal. */
    public static void pause(Duration d) {
        try {
            new CountDownLatch(1).await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }
}

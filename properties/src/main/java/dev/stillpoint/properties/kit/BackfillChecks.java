package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.assertj.core.api.SoftAssertions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GSI backfill [V2, R3] in {@link RequestRulesKit}: a GSI added by UpdateTable to a table that
 * already holds items gets every item that carries its key, each exactly once, whatever the table's
 * size against the backend's page or fetch size. The sizes sit on both sides of 1,000 (the page of
 * SQLite's keyset backfill and the fetch of PostgreSQL's cursor) and well past it, so a backfill that
 * stops after its first page, or reads the row at a page boundary twice, fails here on every backend.
 */
final class BackfillChecks {

    private static final Logger LOG = LoggerFactory.getLogger(BackfillChecks.class);

    /** Table sizes: one under, at and over the 1,000-row page, and two and a half pages. */
    static final int[] SIZES = {999, 1_000, 1_001, 2_500};

    /** Items carry the index's key except every {@code WITHOUT_KEY}th of the largest table [R3]. */
    private static final int WITHOUT_KEY = 10;

    /** BatchWriteItem's largest batch [R7]. */
    private static final int BATCH = 25;

    private BackfillChecks() {
    }

    static void v2(ConformanceFixture fixture) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            SoftAssertions soft = new SoftAssertions();
            boolean counted = true;
            for (int i = 0; i < SIZES.length; i++) {
                // Both key shapes: the keyset of a composite key pages on (pk, sk), a hash-only one on pk alone.
                counted &= backfill(soft, fixture, tables, SIZES[i], i % 2 == 1);
            }
            if (!counted) {
                LOG.warn("[V2] {} cannot count index entries: the GSI backfill was checked by its status only",
                        fixture.backendName());
            }
            soft.assertAll();
        }
    }

    /**
     * A GSI created with its table is ready when the table is [D9]. DynamoDB defines secondary indexes "as part
     * of the CreateTable operation" and serves reads and writes on an ACTIVE table only
     * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html); an index's
     * {@code IndexStatus} is ACTIVE when "the index is ready for use"
     * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GlobalSecondaryIndexDescription.html).
     * A GSI left CREATING or backfilling here would stay so: no backfill is ever due for it.
     */
    static void d9(ConformanceFixture fixture) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("d9g");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.composite("pk", "sk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                            new AttributeDefinition("g", ScalarType.S)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all()),
                            GlobalSecondaryIndex.creating("by_g_sk", KeySchema.composite("g", "sk"), Projection.keysOnly())),
                    List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            List<GlobalSecondaryIndex> gsis = tables.describeTable(ACCOUNT, table).globalSecondaryIndexes();
            KitSupport.bestEffortDelete(tables, table);
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(gsis).extracting(GlobalSecondaryIndex::name).as("[D9] the GSIs of CreateTable, in order")
                    .containsExactly("by_g", "by_g_sk");
            for (GlobalSecondaryIndex gsi : gsis) {
                soft.assertThat(gsi.status()).as("[D9] GSI '%s' created with its table, once the table is ACTIVE",
                        gsi.name()).isEqualTo(IndexStatus.ACTIVE);
                soft.assertThat(gsi.backfilling()).as("[D9] GSI '%s' created with its table: nothing to backfill",
                        gsi.name()).isFalse();
            }
            soft.assertAll();
        }
    }

    /** Loads {@code size} items, adds a GSI, and checks its entries; false when the fixture cannot count them. */
    private static boolean backfill(SoftAssertions soft, ConformanceFixture fixture, TableOperations tables, int size,
                                    boolean composite) {
        String table = KitSupport.uniqueName("v2b" + size);
        KeySchema key = composite ? KeySchema.composite("pk", "sk") : KeySchema.hashOnly("pk");
        List<AttributeDefinition> definitions = composite
                ? List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N))
                : List.of(new AttributeDefinition("pk", ScalarType.S));
        tables.createTable(new CreateTableRequest(ACCOUNT, table, key, definitions, List.of(), List.of(), Optional.empty()));
        KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
        long carrying = 0;
        List<WriteRequest> batch = new ArrayList<>(BATCH);
        for (int n = 0; n < size; n++) {
            boolean withKey = size < 2_000 || n % WITHOUT_KEY != 0;
            carrying += withKey ? 1 : 0;
            batch.add(new WriteRequest.Put(item(n, composite, withKey)));
            if (batch.size() == BATCH || n == size - 1) {
                write(tables, table, batch);
                batch = new ArrayList<>(BATCH);
            }
        }
        tables.addGlobalSecondaryIndex(ACCOUNT, table, CreateGsiRequest.of(
                GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.keysOnly()),
                new AttributeDefinition("g", ScalarType.S)));
        awaitIndexActive(tables, table, "by_g", ACTIVE_DEADLINE);
        OptionalLong entries = fixture.indexEntries(ACCOUNT, table, "by_g");
        if (entries.isPresent()) {
            // Every item's g is its own, so the index's entries are one per item that carries g: fewer is a
            // backfill that stopped early, more is an item read twice.
            soft.assertThat(entries.getAsLong())
                    .as("[V2] a GSI added to a %s table of %d items, %d of them carrying its key, holds each of them "
                            + "exactly once", composite ? "composite-key" : "hash-key", size, carrying)
                    .isEqualTo(carrying);
        }
        KitSupport.bestEffortDelete(tables, table);
        return entries.isPresent();
    }

    /** Item {@code n}: its key, and (when {@code withKey}) a g no other item has. */
    private static Item item(int n, boolean composite, boolean withKey) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        if (composite) {
            // A few partitions of many sort keys: page boundaries fall inside a partition and between two.
            values.put("pk", AttributeValue.s("p" + (n % 3)));
            values.put("sk", AttributeValue.n(Integer.toString(n)));
        } else {
            values.put("pk", AttributeValue.s(String.format("k%05d", n)));
        }
        if (withKey) {
            values.put("g", AttributeValue.s("g" + n));
        }
        return Item.of(values);
    }

    /** One BatchWriteItem, its unprocessed requests sent again until none is left. */
    private static void write(TableOperations tables, String table, List<WriteRequest> requests) {
        List<WriteRequest> left = requests;
        for (int attempt = 0; !left.isEmpty(); attempt++) {
            if (attempt == 10) {
                throw new AssertionError("[V2] loading " + table + ": " + left.size() + " requests still unprocessed");
            }
            BatchWriteResult result = tables.batchWriteItem(ACCOUNT, Map.of(table, left));
            left = result.unprocessedItems().getOrDefault(table, List.of());
        }
    }

    /** Polls DescribeTable until the index is ACTIVE and no longer backfilling; fails at the deadline. */
    private static void awaitIndexActive(TableOperations tables, String table, String index, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            TableDescription d = tables.describeTable(ACCOUNT, table);
            Optional<GlobalSecondaryIndex> gsi = d.gsi(index);
            if (d.status() == TableStatus.ACTIVE && gsi.isPresent() && gsi.get().status() == IndexStatus.ACTIVE
                    && !gsi.get().backfilling()) {
                return;
            }
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("[V2] index '" + index + "' of '" + table + "' is not ACTIVE after "
                        + deadline.toSeconds() + " s: " + gsi);
            }
            KitSupport.pause(Duration.ofMillis(10));
        }
    }
}

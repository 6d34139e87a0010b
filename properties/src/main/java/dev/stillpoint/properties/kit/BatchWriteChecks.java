package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.RequestRuleChecks.expectRefusal;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
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
 * The checks of BatchWriteItem [R7] in {@link RequestRulesKit}: a batch of 25 puts and deletes over two
 * tables applied whole with its index entries maintained; 0 and 26 requests, a duplicate key, one bad
 * item and a missing table each refused with nothing of the batch applied. Every backend reads every
 * definition and applies every rule before it writes, so "nothing applied" holds on Cassandra too.
 */
final class BatchWriteChecks {

    private static final Logger LOG = LoggerFactory.getLogger(BatchWriteChecks.class);

    private BatchWriteChecks() {
    }

    static void r7(ConformanceFixture fixture) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            String a = KitSupport.uniqueName("r7a");
            tables.createTable(new CreateTableRequest(ACCOUNT, a, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("g", ScalarType.S)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                    List.of(), Optional.empty()));
            String b = KitSupport.uniqueName("r7b");
            tables.createTable(new CreateTableRequest(ACCOUNT, b, KeySchema.composite("pk", "sk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
                    List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, a, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            KitSupport.awaitStatus(tables, b, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            SoftAssertions soft = new SoftAssertions();
            applied(soft, fixture, tables, a, b);
            refused(soft, tables, a, b);
            KitSupport.bestEffortDelete(tables, a);
            KitSupport.bestEffortDelete(tables, b);
            soft.assertAll();
        }
    }

    /** 25 requests, puts and deletes over two tables: all applied, read back, index entries maintained. */
    private static void applied(SoftAssertions soft, ConformanceFixture fixture, TableOperations tables, String a, String b) {
        tables.putItem(ACCOUNT, a, hashItem("old-g", Optional.of("x")));
        tables.putItem(ACCOUNT, a, hashItem("old-del", Optional.of("y")));
        tables.putItem(ACCOUNT, a, hashItem("keep", Optional.of("z")));
        tables.putItem(ACCOUNT, b, rangeItem("p", "1"));
        tables.putItem(ACCOUNT, b, rangeItem("p", "2"));
        List<WriteRequest> onA = new ArrayList<>();
        List<Item> putOnA = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
            Item item = hashItem("a" + i, i % 2 == 0 ? Optional.of("g" + i) : Optional.empty());
            putOnA.add(item);
            onA.add(new WriteRequest.Put(item));
        }
        Item overwritten = hashItem("old-g", Optional.empty());
        onA.add(new WriteRequest.Put(overwritten));
        onA.add(new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("old-del"))));
        List<WriteRequest> onB = new ArrayList<>(List.of(
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("1"))),
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("2")))));
        for (int i = 1; i <= 3; i++) {
            onB.add(new WriteRequest.Put(rangeItem("q", Integer.toString(i))));
        }
        Map<String, List<WriteRequest>> batch = new LinkedHashMap<>();
        batch.put(a, onA);
        batch.put(b, onB);
        BatchWriteResult result = tables.batchWriteItem(ACCOUNT, batch);
        soft.assertThat(result.complete()).as("[R7] a batch of 25 valid requests over two tables is complete (unprocessed: %s)",
                result.unprocessedItems()).isTrue();
        for (Item item : putOnA) {
            soft.assertThat(tables.getItem(ACCOUNT, a, RequestKey.of("pk", item.get("pk"))))
                    .as("[R7] the batch's put of %s reads back equal", item.get("pk")).contains(item);
        }
        soft.assertThat(tables.getItem(ACCOUNT, a, RequestKey.of("pk", AttributeValue.s("old-g"))))
                .as("[R7] the batch's overwrite of 'old-g' reads back").contains(overwritten);
        soft.assertThat(tables.getItem(ACCOUNT, a, RequestKey.of("pk", AttributeValue.s("old-del"))))
                .as("[R7] the batch's delete of 'old-del' removed it").isEmpty();
        for (String sk : List.of("1", "2")) {
            soft.assertThat(tables.getItem(ACCOUNT, b, RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n(sk))))
                    .as("[R7] the batch's delete of (p, %s) in the second table removed it", sk).isEmpty();
        }
        for (int i = 1; i <= 3; i++) {
            String sk = Integer.toString(i);
            soft.assertThat(tables.getItem(ACCOUNT, b, RequestKey.of("pk", AttributeValue.s("q"), "sk", AttributeValue.n(sk))))
                    .as("[R7] the batch's put of (q, %s) in the second table reads back", sk).contains(rangeItem("q", sk));
        }
        OptionalLong entries = fixture.indexEntries(ACCOUNT, a, "by_g");
        if (entries.isPresent()) {
            // 'keep' and the nine even puts; 'old-g' lost its g and 'old-del' went, so their entries went too.
            soft.assertThat(entries.getAsLong()).as("[R7] index by_g holds exactly the entries of the items that carry g"
                    + " after the batch").isEqualTo(10L);
        } else {
            LOG.warn("[R7] {} cannot count index entries: the batch's index maintenance was not checked here",
                    fixture.backendName());
        }
    }

    /** Each refusal applies nothing of its batch, whichever request was bad and wherever it stood. */
    private static void refused(SoftAssertions soft, TableOperations tables, String a, String b) {
        List<WriteRequest> many = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            many.add(new WriteRequest.Put(hashItem("n" + i, Optional.empty())));
        }
        expectRefusal(soft, "R7", "a batch of 26 requests", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, Map.of(a, many)), "26");
        absent(soft, tables, a, Key.of(AttributeValue.s("n0")), "the refused batch of 26");
        expectRefusal(soft, "R7", "a batch of no requests", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, Map.of()), "0");

        // The same key twice: N 7 and 7.0 are one number, so one key.
        Map<String, List<WriteRequest>> twice = new LinkedHashMap<>();
        twice.put(a, List.of(new WriteRequest.Put(hashItem("d1", Optional.empty()))));
        twice.put(b, List.of(new WriteRequest.Put(rangeItem("d", "7")), new WriteRequest.Put(Item.of(Map.of("pk", AttributeValue.s("d"), "sk", new AttributeValue.N("7.0"))))));
        expectRefusal(soft, "R7", "a batch with the key (d, 7) twice", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, twice), b, "'d'");
        absent(soft, tables, a, Key.of(AttributeValue.s("d1")), "the refused batch with a duplicate key");
        absent(soft, tables, b, Key.of(AttributeValue.s("d"), AttributeValue.n("7")), "the refused batch with a duplicate key");
        Map<String, List<WriteRequest>> putAndDelete = Map.of(a, List.of(new WriteRequest.Put(hashItem("e1", Optional.empty())),
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("e1")))));
        expectRefusal(soft, "R7", "a batch putting and deleting 'e1'", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, putAndDelete), a, "'e1'");
        absent(soft, tables, a, Key.of(AttributeValue.s("e1")), "the refused batch putting and deleting one key");

        // One bad item (g declared S, given N) last, after good requests on both tables [R3].
        Map<String, List<WriteRequest>> bad = new LinkedHashMap<>();
        bad.put(b, List.of(new WriteRequest.Put(rangeItem("f", "1"))));
        bad.put(a, List.of(new WriteRequest.Put(hashItem("f1", Optional.of("ok"))),
                new WriteRequest.Put(Item.of(Map.of("pk", AttributeValue.s("f2"), "g", AttributeValue.n("5"))))));
        expectRefusal(soft, "R7", "a batch whose last item has g as N", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, bad), "by_g", "'g'");
        absent(soft, tables, b, Key.of(AttributeValue.s("f"), AttributeValue.n("1")), "the batch refused for one bad item");
        absent(soft, tables, a, Key.of(AttributeValue.s("f1")), "the batch refused for one bad item");

        String missing = KitSupport.uniqueName("r7missing");
        Map<String, List<WriteRequest>> toMissing = new LinkedHashMap<>();
        toMissing.put(a, List.of(new WriteRequest.Put(hashItem("h1", Optional.empty()))));
        toMissing.put(missing, List.of(new WriteRequest.Put(hashItem("h2", Optional.empty()))));
        expectRefusal(soft, "R7", "a batch naming a missing table", ErrorReason.TABLE_NOT_FOUND,
                () -> tables.batchWriteItem(ACCOUNT, toMissing), missing);
        absent(soft, tables, a, Key.of(AttributeValue.s("h1")), "the batch refused for a missing table");
        expectRefusal(soft, "R7", "a batch naming the table 'a b' [R1]", ErrorReason.VALIDATION,
                () -> tables.batchWriteItem(ACCOUNT, Map.of("a b", List.of(new WriteRequest.Delete(
                        RequestKey.of("pk", AttributeValue.s("k")))))), "a b");
    }

    private static void absent(SoftAssertions soft, TableOperations tables, String table, Key key, String what) {
        KeySchema schema = key.sort().isPresent() ? KeySchema.composite("pk", "sk") : KeySchema.hashOnly("pk");
        soft.assertThat(tables.getItem(ACCOUNT, table, KitSupport.requestKey(key, schema))).as("[R7] %s applied nothing: %s is absent", what, key).isEmpty();
    }

    private static Item hashItem(String pk, Optional<String> g) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("pk", AttributeValue.s(pk));
        values.put("v", AttributeValue.s("value of " + pk));
        g.ifPresent(x -> values.put("g", AttributeValue.s(x)));
        return Item.of(values);
    }

    private static Item rangeItem(String pk, String sk) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.n(sk), "v", AttributeValue.n("1")));
    }
}

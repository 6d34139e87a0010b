package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;

/**
 * DynamoDB's reference corpus for request keys [V3]: GetItem, DeleteItem and a BatchWriteItem
 * DeleteRequest, each with an exact, an extra, a missing, a misnamed and a mistyped key on a hash-only
 * and on a hash+range table, each with DynamoDB's documented verdict. A refused key is a
 * ValidationException with DynamoDB's wording and leaves the table as it was; an exact key reads or
 * deletes the item. It answers "do we agree with DynamoDB" on every backend that runs the kit, not
 * only "do the backends agree".
 *
 * <p>The verdicts come from the GetItem and DeleteItem references ("For the primary key, you must provide
 * all of the attributes ... For a composite primary key, you must provide values for both the partition
 * key and the sort key",
 * https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/aws.sdk.kotlin.services.dynamodb.model/-get-item-request/key.html
 * and .../-delete-item-request/key.html) and from AWS's knowledge-center page on the refusal, which lists
 * a wrong data type, a misnamed attribute, part of a key and "an unnecessary additional key" as causes of
 * "The provided key element does not match the schema"
 * (https://repost.aws/knowledge-center/dynamodb-provided-key-element-error).
 */
final class RequestKeyCorpus {

    /** DynamoDB's message for a key that does not match the schema, as its clients see it. */
    static final String MISMATCH = "The provided key element does not match the schema";

    private static final String GET_ITEM_DOC = "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/dynamodb/"
            + "aws.sdk.kotlin.services.dynamodb.model/-get-item-request/key.html";
    private static final String KEY_ELEMENT_DOC = "https://repost.aws/knowledge-center/dynamodb-provided-key-element-error";

    /** One request key with DynamoDB's verdict on it and the page that gives the verdict. */
    record Case(String what, RequestKey key, boolean accepted, String documentation) {
    }

    private RequestKeyCorpus() {
    }

    /** Keys on the hash-only table {@code pk:S}, whose item is {@code pk = "a"}. */
    static List<Case> hashOnly() {
        AttributeValue a = AttributeValue.s("a");
        return List.of(
                new Case("the exact key {pk: S}", RequestKey.of("pk", a), true, GET_ITEM_DOC),
                new Case("an extra attribute v", RequestKey.of("pk", a, "v", AttributeValue.s("x")), false, KEY_ELEMENT_DOC),
                new Case("an extra sort value sk", RequestKey.of("pk", a, "sk", AttributeValue.n("1")),
                        false, KEY_ELEMENT_DOC),
                new Case("no attributes", new RequestKey(Map.of()), false, GET_ITEM_DOC),
                new Case("the key attribute misnamed PK", RequestKey.of("PK", a), false, KEY_ELEMENT_DOC),
                new Case("the key as N", RequestKey.of("pk", AttributeValue.n("1")), false, KEY_ELEMENT_DOC));
    }

    /** Keys on the hash+range table {@code pk:S, sk:N}, whose item is {@code pk = "a", sk = 1}. */
    static List<Case> composite() {
        AttributeValue a = AttributeValue.s("a");
        AttributeValue one = AttributeValue.n("1");
        return List.of(
                new Case("the exact key {pk: S, sk: N}", RequestKey.of("pk", a, "sk", one), true, GET_ITEM_DOC),
                new Case("the exact key, sk written 1.0E0", RequestKey.of("pk", a, "sk", AttributeValue.n("1.0E0")), true,
                        GET_ITEM_DOC),
                new Case("the partition value only", RequestKey.of("pk", a), false, GET_ITEM_DOC),
                new Case("the sort value only", RequestKey.of("sk", one), false, GET_ITEM_DOC),
                new Case("an extra attribute v", new RequestKey(three(a, one)), false, KEY_ELEMENT_DOC),
                new Case("sk as S", RequestKey.of("pk", a, "sk", AttributeValue.s("1")), false, KEY_ELEMENT_DOC),
                new Case("pk as B", RequestKey.of("pk", AttributeValue.b(new byte[] {1}), "sk", one), false, KEY_ELEMENT_DOC));
    }

    private static Map<String, AttributeValue> three(AttributeValue a, AttributeValue one) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put("pk", a);
        key.put("sk", one);
        key.put("v", AttributeValue.s("x"));
        return key;
    }

    /** The corpus on the fixture's backend: every case through GetItem, DeleteItem and a batch delete. */
    static void v3(ConformanceFixture fixture) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            SoftAssertions soft = new SoftAssertions();
            Item hashItem = Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.s("x")));
            String hash = table(tables, "v3h", KeySchema.hashOnly("pk"), List.of(new AttributeDefinition("pk", ScalarType.S)));
            run(soft, tables, hash, "hash-only", hashOnly(), hashItem);
            Item compositeItem = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1"),
                    "v", AttributeValue.s("x")));
            String composite = table(tables, "v3c", KeySchema.composite("pk", "sk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)));
            run(soft, tables, composite, "hash+range", composite(), compositeItem);
            KitSupport.bestEffortDelete(tables, hash);
            KitSupport.bestEffortDelete(tables, composite);
            soft.assertAll();
        }
    }

    private static String table(TableOperations tables, String check, KeySchema schema, List<AttributeDefinition> definitions) {
        String table = KitSupport.uniqueName(check);
        tables.createTable(new CreateTableRequest(ACCOUNT, table, schema, definitions, List.of(), List.of(), Optional.empty()));
        KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
        return table;
    }

    private static void run(SoftAssertions soft, TableOperations tables, String table, String shape, List<Case> cases,
                            Item item) {
        RequestKey exact = cases.get(0).key();
        tables.putItem(ACCOUNT, table, item);
        List<Case> refused = new ArrayList<>();
        for (Case c : cases) {
            if (!c.accepted()) {
                refused.add(c);
            }
        }
        for (Case c : refused) {
            String on = " with " + c.what() + " on a " + shape + " table (" + c.documentation() + ")";
            refusedAsDynamoDbRefusesIt(soft, "GetItem" + on, () -> tables.getItem(ACCOUNT, table, c.key()));
            refusedAsDynamoDbRefusesIt(soft, "DeleteItem" + on, () -> tables.deleteItem(ACCOUNT, table, c.key()));
            refusedAsDynamoDbRefusesIt(soft, "a batch DeleteRequest" + on, () -> tables.batchWriteItem(ACCOUNT,
                    Map.of(table, List.of(new WriteRequest.Delete(c.key())))));
            soft.assertThat(tables.getItem(ACCOUNT, table, exact))
                    .as("[V3] the item of the %s table is untouched after the refused requests%s", shape, on)
                    .contains(item);
            // Put back what a wrongly accepted delete removed, so each case is judged on its own.
            tables.putItem(ACCOUNT, table, item);
        }
        for (Case c : cases) {
            if (!c.accepted()) {
                continue;
            }
            String on = " with " + c.what() + " on a " + shape + " table (" + c.documentation() + ")";
            accepted(soft, "GetItem" + on, () -> soft.assertThat(tables.getItem(ACCOUNT, table, c.key()))
                    .as("[V3] GetItem%s reads the item", on).contains(item));
            accepted(soft, "DeleteItem" + on, () -> tables.deleteItem(ACCOUNT, table, c.key()));
            soft.assertThat(tables.getItem(ACCOUNT, table, exact)).as("[V3] DeleteItem%s deleted the item", on).isEmpty();
            tables.putItem(ACCOUNT, table, item);
            accepted(soft, "a batch DeleteRequest" + on, () -> tables.batchWriteItem(ACCOUNT,
                    Map.of(table, List.of(new WriteRequest.Delete(c.key())))));
            soft.assertThat(tables.getItem(ACCOUNT, table, exact)).as("[V3] a batch DeleteRequest%s deleted the item", on)
                    .isEmpty();
            tables.putItem(ACCOUNT, table, item);
        }
    }

    private static void refusedAsDynamoDbRefusesIt(SoftAssertions soft, String what, Runnable call) {
        RequestRuleChecks.expectRefusal(soft, "V3", what, ErrorReason.VALIDATION, call, MISMATCH);
    }

    private static void accepted(SoftAssertions soft, String what, Runnable call) {
        try {
            call.run();
        } catch (StorageException e) {
            soft.fail("[V3] " + what + " was refused (" + e.reason() + ": " + e.getMessage() + "); DynamoDB accepts it");
        }
    }
}

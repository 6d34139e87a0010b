package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.BatchRules;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** BatchWriteItem's rules [R7], pure: counts, names, duplicates after normalisation, each item as PutItem checks it. */
class BatchRulesTest {

    private static final String ACCOUNT = "000000000000";

    private static final TableDescription TABLE = new CreateTableRequest(ACCOUNT, "orders", KeySchema.composite("pk", "sk"),
            List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
            List.of(), List.of(), Optional.empty())
            .describe("id", "arn:orders", Instant.parse("2026-01-01T00:00:00Z")).withStatus(TableStatus.ACTIVE);

    private static WriteRequest put(String pk, String sk) {
        return new WriteRequest.Put(Item.of(Map.of("pk", AttributeValue.s(pk), "sk", new AttributeValue.N(sk))));
    }

    private static List<WriteRequest> puts(int n) {
        List<WriteRequest> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(put("p", Integer.toString(i)));
        }
        return out;
    }

    private static StorageException refusal(Runnable call) {
        return Refusals.thrownBy(call);
    }

    @Test
    void oneToTwentyFiveRequestsInAllAreAccepted_zeroAndTwentySixAreRefusedNamingTheCount() {
        assertThat(BatchRules.requireShape(ACCOUNT, Map.of("orders", puts(25)))).containsOnlyKeys("orders");
        Map<String, List<WriteRequest>> split = new LinkedHashMap<>();
        split.put("orders", puts(13));
        split.put("other_table", puts(13));
        StorageException over = refusal(() -> BatchRules.requireShape(ACCOUNT, split));
        assertThat(over.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(over.getMessage()).contains("26").contains("25");
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, Map.of())).getMessage()).contains("got 0");
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, null)).getMessage()).contains("got 0");
    }

    @Test
    void tableNamesAccountsAndMissingItemsAreRefusedBeforeStorage() {
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, Map.of("a b", puts(1)))).getMessage()).contains("a b");
        assertThat(refusal(() -> BatchRules.requireShape("a:b", Map.of("orders", puts(1)))).getMessage()).contains("a:b");
        List<WriteRequest> nullItem = new ArrayList<>();
        nullItem.add(new WriteRequest.Put(null));
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, Map.of("orders", nullItem))).getMessage())
                .contains("orders").contains("no item");
        Map<String, List<WriteRequest>> empty = new LinkedHashMap<>();
        empty.put("orders", puts(1));
        empty.put("other_table", List.of());
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, empty)).getMessage()).contains("other_table");
    }

    @Test
    void theSameKeyTwiceOnOneTableIsRefusedAfterNumbersAreNormalised() {
        StorageException e = refusal(() -> BatchRules.forTable(TABLE, List.of(put("p", "7"), put("p", "7.0"))));
        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(e.getMessage()).contains("'orders'").contains("pk = S 'p'").contains("sk = N 7");
        StorageException putThenDelete = refusal(() -> BatchRules.forTable(TABLE, List.of(put("p", "1"),
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", new AttributeValue.N("1.0"))))));
        assertThat(putThenDelete.getMessage()).contains("sk = N 1");
    }

    @Test
    void distinctKeysComeBackCheckedInRequestOrder() {
        List<ItemChange> changes = BatchRules.forTable(TABLE, List.of(put("p", "1.50"),
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("2")))));
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0)).isInstanceOf(ItemChange.Put.class);
        assertThat(changes.get(0).key()).isEqualTo(Key.of(AttributeValue.s("p"), new AttributeValue.N("1.5")));
        assertThat(changes.get(1).request()).isEqualTo(new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("2"))));
    }

    @Test
    void eachItemIsCheckedAsPutItemChecksIt_andTheTableMustBeActive() {
        StorageException wrongKey = refusal(() -> BatchRules.forTable(TABLE, List.of(put("p", "1"),
                new WriteRequest.Put(Item.of(Map.of("pk", AttributeValue.s("p"), "sk", AttributeValue.s("one")))))));
        assertThat(wrongKey.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(wrongKey.getMessage()).contains("sk");
        StorageException creating = refusal(() -> BatchRules.forTable(TABLE.withStatus(TableStatus.CREATING), puts(1)));
        assertThat(creating.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }
    @Test
    void r7_deletesWithAKeyAreAccepted_aDeleteWithoutOneIsRefusedSayingItHasNoKey() {
        List<WriteRequest> deletes = List.of(new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("1"))),
                new WriteRequest.Delete(RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("2"))));
        assertThat(BatchRules.requireShape(ACCOUNT, Map.of("orders", deletes))).isEqualTo(Map.of("orders", deletes));
        List<WriteRequest> keyless = new ArrayList<>(deletes);
        keyless.add(new WriteRequest.Delete(null));
        assertThat(refusal(() -> BatchRules.requireShape(ACCOUNT, Map.of("orders", keyless))).getMessage())
                .isEqualTo("a request of BatchWriteItem on table 'orders' has no key");
    }

    @Test
    void r7_aRepeatedKeyIsShownInTheMessageByTypeAndValue_binaryAsBase64_controlCharactersEscaped() {
        TableDescription binary = new CreateTableRequest(ACCOUNT, "blobs", KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.B), new AttributeDefinition("sk", ScalarType.S)),
                List.of(), List.of(), Optional.empty())
                .describe("id", "arn:blobs", Instant.parse("2026-01-01T00:00:00Z")).withStatus(TableStatus.ACTIVE);
        WriteRequest put = new WriteRequest.Put(Item.of(Map.of("pk", new AttributeValue.B(new byte[] {1, 2, (byte) 0xff}),
                "sk", AttributeValue.s("a\u0001b"))));
        assertThat(refusal(() -> BatchRules.forTable(binary, List.of(put, put))).getMessage())
                .as("[R6, R7] the key as the message shows it")
                .isEqualTo("BatchWriteItem holds two requests on table 'blobs' for the key {pk = B AQL/, sk = S 'a\\u0001b'}"
                        + "; a batch may write each item once");
    }
}

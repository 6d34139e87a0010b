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
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The item rules of PutItem, GetItem and DeleteItem and of an index's backfill against a table with
 * indexes [R3, R4]: which index keys an item has, which index key values are refused (wrong type,
 * empty) and which are left out of the index, and that every string an item or key holds is
 * well-formed. Examples, so they run in the domain's PIT run (which leaves the machinery tests out).
 */
class ItemRulesTest {

    private static final AttributeValue BAD = new AttributeValue.S("a\uD800b");

    private static TableDescription table() {
        TableDescription base = new CreateTableRequest("acct", "Orders", KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
                List.of(), List.of(), Optional.empty()).describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        return base.applyCreateGsi(new CreateGsiRequest(GlobalSecondaryIndex.creating("byG",
                        KeySchema.composite("g", "r"), Projection.all()),
                        List.of(new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("r", ScalarType.N))))
                .applyCreateGsi(new CreateGsiRequest(GlobalSecondaryIndex.creating("byH", KeySchema.hashOnly("h"),
                        Projection.all()), List.of(new AttributeDefinition("h", ScalarType.B))));
    }

    private static Item item(Object... pairs) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S("p"));
        attributes.put("sk", new AttributeValue.N("1"));
        for (int i = 0; i < pairs.length; i += 2) {
            attributes.put((String) pairs[i], (AttributeValue) pairs[i + 1]);
        }
        return Item.of(attributes);
    }

    // R3: an item has a key in each index whose key attributes it holds with their declared types, and
    // none in an index whose key it lacks (partition or sort).
    @Test
    void r3_anItemHasAKeyInEveryIndexWhoseKeyItHolds() {
        ItemWrite both = ItemRules.forPut(table(), item("g", new AttributeValue.S("x"), "r", new AttributeValue.N("2"),
                "h", new AttributeValue.B(new byte[] {1})));
        assertThat(both.indexKeys()).as("[R3] the key in each index")
                .containsEntry("byG", Key.of(new AttributeValue.S("x"), new AttributeValue.N("2")))
                .containsEntry("byH", Key.of(new AttributeValue.B(new byte[] {1})));
        assertThat(ItemRules.forPut(table(), item("g", new AttributeValue.S("x"))).indexKeys())
                .as("[R3] no sort key value: not in the index").isEmpty();
        assertThat(ItemRules.forPut(table(), item("r", new AttributeValue.N("2"))).indexKeys())
                .as("[R3] no partition key value: not in the index").isEmpty();
    }

    // R3: an index key value of another type than declared, or an empty S or B, is refused naming the
    // attribute, the index and the reason; a DELETING index takes no entries and checks nothing.
    @Test
    void r3_anIndexKeyOfTheWrongTypeOrEmptyIsRefused() {
        refused(item("g", new AttributeValue.N("5"), "r", new AttributeValue.N("2")), "'g'", "byG", "holds a value of type N");
        refused(item("g", new AttributeValue.S("x"), "r", new AttributeValue.S("2")), "'r'", "byG", "holds a value of type S");
        refused(item("g", new AttributeValue.S(""), "r", new AttributeValue.N("2")), "'g'", "byG", "must not be an empty S value");
        refused(item("h", new AttributeValue.B(new byte[0])), "'h'", "byH", "must not be an empty B value");
        TableDescription deleting = table().withIndexStatus("byG", IndexStatus.DELETING);
        assertThat(ItemRules.forPut(deleting, item("g", new AttributeValue.N("5"), "r", new AttributeValue.N("2"))).indexKeys())
                .as("[R3] a DELETING index takes no entry").isEmpty();
    }

    // R3, V1: an index sort key the item holds in violation of the index's key schema (another type, empty,
    // over 1,024 bytes) is refused even when the index's partition key is absent, so the item would not enter
    // the index: DynamoDB refuses it ("Type mismatch for Index Key", recorded by dynalite's tests against
    // DynamoDB; GSI.OnlineOps.ViolationDetection.html: "all write operations to items that violate the new
    // index's key schema are rejected"). Found by a differential run against dynalite.
    @Test
    void r3_anIndexSortKeyInViolationIsRefusedWithoutItsPartitionKey() {
        refused(item("r", new AttributeValue.S("2")), "'r'", "byG",
                "Type mismatch for Index Key r Expected: N Actual: S IndexName: byG", "table 'Orders'");
        TableDescription stringSort = CreateTableRequest.builder("acct", "Orders")
                .partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .globalIndex("byG", "g", ScalarType.S, "r", ScalarType.S, Projection.all())
                .build().describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        assertThatThrownBy(() -> ItemRules.forPut(stringSort, item("r", new AttributeValue.S(""))))
                .as("[R3] an empty index sort key, no partition key").isInstanceOf(StorageException.class)
                .hasMessageContaining("'r'").hasMessageContaining("must not be an empty S value");
        assertThatThrownBy(() -> ItemRules.forPut(stringSort, item("r", new AttributeValue.S("x".repeat(1025)))))
                .as("[R3] an index sort key over 1,024 bytes, no partition key").isInstanceOf(StorageException.class)
                .hasMessageContaining("'r'").hasMessageContaining("1024");
        assertThat(ItemRules.forPut(table(), item("r", new AttributeValue.N("2"))).indexKeys())
                .as("[R3] a sound sort key alone: accepted, not in the index").isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table(), "byG", item("r", new AttributeValue.S("2"))))
                .as("[R3] a backfill leaves such a stored item out, refusing nothing").isEmpty();
    }

    // R3: a backfill leaves out of the index a stored item whose index key is missing, of another type
    // or empty, and keys the others; an unknown index is a validation error naming it.
    @Test
    void r3_aBackfillLeavesOutItemsWithoutAValidIndexKey() {
        TableDescription table = table();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byG", item("g", new AttributeValue.S("x"), "r", new AttributeValue.N("2"))))
                .contains(Key.of(new AttributeValue.S("x"), new AttributeValue.N("2")));
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byH", item("h", new AttributeValue.B(new byte[] {7}))))
                .contains(Key.of(new AttributeValue.B(new byte[] {7})));
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byG", item("g", new AttributeValue.N("5"), "r", new AttributeValue.N("2"))))
                .as("[R3] another type: left out").isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byG", item("g", new AttributeValue.S(""), "r", new AttributeValue.N("2"))))
                .as("[R3] empty: left out").isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byH", item())).as("[R3] missing: left out").isEmpty();
        assertThatThrownBy(() -> ItemRules.entryKeyOfStoredItem(table, "byZ", item()))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage()).contains("'byZ'"));
    }

    // R3: an LSI is an index like a GSI: a put has its key there when the item holds the LSI's sort key,
    // and a backfill finds the LSI by name and keys the stored item the same way.
    @Test
    void r3_anLsiKeysAPutAndABackfillAsAGsiDoes() {
        TableDescription table = CreateTableRequest.builder("acct", "Orders")
                .partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .localIndex("byL", "l", ScalarType.S, Projection.all())
                .localIndex("byM", "m", ScalarType.N, Projection.keysOnly())
                .globalIndex("byG", "g", ScalarType.S, Projection.all())
                .build().describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        Key inLsi = Key.of(new AttributeValue.S("p"), new AttributeValue.S("x"));
        ItemWrite write = ItemRules.forPut(table, item("l", new AttributeValue.S("x")));
        assertThat(write.indexKeys()).as("[R3] the key in the LSI, none in the GSI").containsExactly(Map.entry("byL", inLsi));
        assertThat(write.indexKey("byL")).contains(inLsi);
        assertThat(write.indexKey("byG")).isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byL", item("l", new AttributeValue.S("x")))).contains(inLsi);
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byL", item("l", new AttributeValue.N("1"))))
                .as("[R3] another type: left out of the LSI").isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byM", item("m", new AttributeValue.N("3"))))
                .as("[R3] the second LSI, found by its name").contains(Key.of(new AttributeValue.S("p"), new AttributeValue.N("3")));
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byM", item("l", new AttributeValue.S("x"))))
                .as("[R3] not in the LSI whose key the item lacks").isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(table, "byG", item("g", new AttributeValue.S("y"))))
                .contains(Key.of(new AttributeValue.S("y")));
    }

    // R4: an item whose strings are all well-formed, at every depth, is accepted unchanged.
    @Test
    void r4_aWellFormedItemIsAcceptedWhole() {
        Item nested = item("a", new AttributeValue.L(List.of(new AttributeValue.S("x"), new AttributeValue.M(Map.of(
                "k", new AttributeValue.L(List.of(new AttributeValue.S("\uD83D\uDE00"), new AttributeValue.SS(Set.of("s")))))))));
        assertThat(ItemRules.forPut(table(), nested).item()).isEqualTo(nested);
    }

    // R4: an unpaired surrogate anywhere in an item (an S, a string set member, a list element, a map
    // value) or in either half of a key is refused, naming where it is.
    @Test
    void r4_everyStringOfAnItemOrKeyIsWellFormed() {
        refused(item("a", BAD), "attribute 'a'");
        refused(item("a", new AttributeValue.SS(Set.of("ok", "a\uD800b"))), "string set 'a'");
        refused(item("a", new AttributeValue.L(List.of(new AttributeValue.S("ok"), BAD))), "attribute 'a[1]'");
        refused(item("a", new AttributeValue.M(Map.of("k", BAD))), "attribute 'a.k'");
        refused(item("a", new AttributeValue.L(List.of(new AttributeValue.M(Map.of("k", BAD))))), "attribute 'a[0].k'");
        assertThatThrownBy(() -> ItemRules.forKey(table(), RequestKey.of("pk", BAD, "sk", new AttributeValue.N("1"))))
                .as("[R4] the partition key").isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        TableDescription sortS = new CreateTableRequest("acct", "Texts", KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.S)),
                List.of(), List.of(), Optional.empty()).describe("id", "arn", Instant.EPOCH);
        assertThatThrownBy(() -> ItemRules.forKey(sortS, RequestKey.of("pk", new AttributeValue.S("p"), "sk", BAD)))
                .as("[R4] the sort key").isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.getMessage()).contains("sk"));
        assertThat(ItemRules.forKey(sortS, RequestKey.of("pk", new AttributeValue.S("p"), "sk", new AttributeValue.S("s"))))
                .isEqualTo(Key.of(new AttributeValue.S("p"), new AttributeValue.S("s")));
    }

    // V3: a request key is exact. DynamoDB refuses a key with a missing, an extra, a misnamed or a mistyped
    // attribute with "The provided key element does not match the schema"
    // (https://repost.aws/knowledge-center/dynamodb-provided-key-element-error); nothing is dropped.
    @Test
    void v3_aRequestKeyCarriesExactlyTheKeyAttributesWithTheirTypes() {
        AttributeValue p = new AttributeValue.S("p");
        AttributeValue one = new AttributeValue.N("1");
        Map<String, AttributeValue> extra = new LinkedHashMap<>();
        extra.put("pk", p);
        extra.put("sk", one);
        extra.put("v", new AttributeValue.S("x"));
        // The refusal lists what the table declares and what the request gave, in the request's order [R6].
        keyRefused(table(), new RequestKey(extra), "table 'Orders' has the key 'pk' S, 'sk' N; the request gave 'pk' S, 'sk' N, 'v' S");
        keyRefused(table(), RequestKey.of("pk", p), "the request gave 'pk' S");
        keyRefused(table(), RequestKey.of("sk", one), "the request gave 'sk' N");
        keyRefused(table(), RequestKey.of("pk", p, "SK", one), "'SK' N");
        keyRefused(table(), RequestKey.of("pk", p, "sk", new AttributeValue.S("1")), "'sk' is declared N but the request gave S '1'");
        keyRefused(table(), RequestKey.of("pk", one, "sk", one), "'pk' is declared S but the request gave N '1'");
        keyRefused(table(), new RequestKey(Map.of()), "the request gave no attributes");
        TableDescription hashOnly = new CreateTableRequest("acct", "Users", KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty())
                .describe("id", "arn", Instant.EPOCH);
        keyRefused(hashOnly, RequestKey.of("pk", p, "v", new AttributeValue.S("x")), "'v' S");
        keyRefused(hashOnly, RequestKey.of("pk", p, "sk", one), "'sk' N");
        keyRefused(hashOnly, RequestKey.of("pk", new AttributeValue.B(new byte[] {1})), "declared S but the request gave B 'AQ=='");
        assertThat(ItemRules.forKey(hashOnly, RequestKey.of("pk", p))).isEqualTo(Key.of(p));
        assertThat(ItemRules.forKey(table(), RequestKey.of("sk", new AttributeValue.N("1.0"), "pk", p)))
                .as("the names decide, not the order; numbers normalised").isEqualTo(Key.of(p, one));
        assertThatThrownBy(() -> ItemRules.forKey(hashOnly, null)).isInstanceOfSatisfying(StorageException.class,
                e -> assertThat(e.getMessage()).contains("'Users'"));
        assertThatThrownBy(() -> new RequestKey(null)).isInstanceOf(StorageException.class);
        Map<String, AttributeValue> nullValue = new java.util.HashMap<>();
        nullValue.put("pk", null);
        assertThatThrownBy(() -> new RequestKey(nullValue)).isInstanceOfSatisfying(StorageException.class,
                e -> assertThat(e.getMessage()).contains("'pk'"));
        Map<String, AttributeValue> nullName = new java.util.HashMap<>();
        nullName.put(null, p);
        assertThatThrownBy(() -> new RequestKey(nullName)).isInstanceOfSatisfying(StorageException.class,
                e -> assertThat(e.getMessage()).contains("a null attribute name"));
        assertThat(RequestKey.of("pk", p).attributes()).containsExactly(Map.entry("pk", p));
        assertThatThrownBy(() -> RequestKey.of("pk", p).attributes().put("v", p)).as("the request key is a copy, read-only")
                .isInstanceOf(UnsupportedOperationException.class);
    }

    // R6: a put without an item is refused naming the table, before any rule reads the item.
    @Test
    void r6_aPutWithoutAnItemIsRefusedNamingTheTable() {
        assertThatThrownBy(() -> ItemRules.forPut(table(), null)).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).isEqualTo("item to put into table 'Orders' is required, got null");
        });
    }

    private static void keyRefused(TableDescription table, RequestKey key, String... named) {
        assertThatThrownBy(() -> ItemRules.forKey(table, key)).as("[V3] %s", key)
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).startsWith("The provided key element does not match the schema: table '"
                            + table.tableName() + "'").contains(named);
                });
    }

    // R7: a batch result is complete exactly when nothing is unprocessed; a table with nothing left is not listed.
    @Test
    void r7_aBatchResultIsCompleteExactlyWhenNothingIsUnprocessed() {
        assertThat(BatchWriteResult.applied().complete()).isTrue();
        assertThat(BatchWriteResult.applied().unprocessedItems()).isEmpty();
        WriteRequest put = new WriteRequest.Put(item());
        assertThat(new BatchWriteResult(Map.of("Orders", List.of(put))).complete()).isFalse();
        assertThat(new BatchWriteResult(Map.of("Orders", List.of())).unprocessedItems())
                .as("[R7] a table with nothing unprocessed is left out").isEmpty();
    }

    // R2, R4: every attribute name of an item, at the top and inside maps at any depth, is 1-65,535 bytes of
    // well-formed UTF-8; PutItem's check only names the place once it found something wrong, so these pin that
    // the quick pass it runs first misses nothing (a name of 3-byte characters just over the bound included).
    @Test
    void r2_r4_everyAttributeNameOfAnItemIsCheckedAtEveryDepth() {
        AttributeValue ok = new AttributeValue.S("v");
        refused(item("a\uD800", ok), "attribute name", "an item of table 'Orders'", "unpaired UTF-16 surrogate");
        refused(item("a", new AttributeValue.M(Map.of("k\uDC00", ok))), "map 'a'", "unpaired UTF-16 surrogate");
        refused(item("a", new AttributeValue.L(List.of(new AttributeValue.M(Map.of("k\uD800", ok))))), "map 'a[0]'");
        refused(item("x".repeat(65_536), ok), "65536 bytes of UTF-8; at most 65535");
        String threeByteNameJustOver = "\u20ac".repeat(21_846);
        refused(item("a", new AttributeValue.M(Map.of(threeByteNameJustOver, ok))), "map 'a'", "65538 bytes of UTF-8");
        Item atTheBound = item("a", new AttributeValue.M(Map.of("\u20ac".repeat(21_845), ok)));
        assertThat(ItemRules.forPut(table(), atTheBound).item()).as("[R2] a name of exactly 65,535 bytes is accepted").isEqualTo(atTheBound);
    }

    private static void refused(Item item, String... named) {
        assertThatThrownBy(() -> ItemRules.forPut(table(), item)).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).as("[R3, R4] the refusal names what is wrong").contains(named);
        });
    }
}

package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * [D3a] Bad table and index names and oversized or malformed keys are refused with named
 * Validation errors, before anything is written; values at the limits are accepted.
 */
class NamesAndLimitsTest extends OnSharedNode {

    static final String ACCOUNT = TestCassandra.account();
    static final String TABLE = TestCassandra.tableName("limits");
    static final String HASH_ONLY = TestCassandra.tableName("limits-b");
    static final List<String> BAD_NAMES = List.of("ab", "x".repeat(256), "bad name", "tbl/1", "t\u00e4ble", "semi;colon",
            "quote'd", "");

    @BeforeAll
    static void setUp() {
        storage.tables().createTable(new CreateTableRequest(ACCOUNT, TABLE, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.S),
                        new AttributeDefinition("g", ScalarType.N)),
                List.of(GlobalSecondaryIndex.creating("by-g", KeySchema.hashOnly("g"), Projection.keysOnly())),
                List.of(), Optional.empty()));
        storage.tables().createTable(TestCassandra.hashOnly(ACCOUNT, HASH_ONLY, ScalarType.B));
    }

    static StorageException validation(Runnable call, String what) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).as(what).isInstanceOf(StorageException.class);
        StorageException e = (StorageException) thrown;
        assertThat(e.reason()).as(what + ": %s", e).isEqualTo(ErrorReason.VALIDATION);
        return e;
    }

    static Item keyed(AttributeValue pk, AttributeValue sk) {
        return TestCassandra.item("pk", pk, "sk", sk);
    }

    @Test
    void badTableNamesAreRefusedByEveryOperationNamingTheName() {
        for (String bad : BAD_NAMES) {
            String shown = bad.length() > 20 ? bad.substring(0, 20) : bad;
            StorageException create = validation(() -> storage.tables().createTable(
                    TestCassandra.hashOnly(ACCOUNT, bad, ScalarType.S)), "CreateTable of '" + shown + "'");
            assertThat(create.getMessage()).contains("table name");
            for (Runnable call : List.<Runnable>of(
                    () -> storage.tables().describeTable(ACCOUNT, bad),
                    () -> storage.tables().deleteTable(ACCOUNT, bad),
                    () -> storage.tables().putItem(ACCOUNT, bad, TestCassandra.item("pk", AttributeValue.s("a"))),
                    () -> storage.tables().getItem(ACCOUNT, bad, RequestKey.of("pk", AttributeValue.s("a"))),
                    () -> storage.tables().deleteItem(ACCOUNT, bad, RequestKey.of("pk", AttributeValue.s("a"))),
                    () -> storage.tables().addGlobalSecondaryIndex(ACCOUNT, bad, CreateGsiRequest.of(
                            GlobalSecondaryIndex.creating("idx", KeySchema.hashOnly("pk"), Projection.all()))))) {
                StorageException e = validation(call, "an operation on table '" + shown + "'");
                assertThat(e.getMessage()).contains("table name");
            }
        }
        validation(() -> storage.tables().describeTable(ACCOUNT, null), "a null table name");
        assertThat(storage.tables().listTables(ACCOUNT)).containsExactlyInAnyOrder(TABLE, HASH_ONLY);
    }

    @Test
    void namesAtTheLimitsAreAccepted() {
        String account = TestCassandra.account();
        for (String name : List.of("a.b", "A_b-c.D9", "n".repeat(255))) {
            storage.tables().createTable(TestCassandra.hashOnly(account, name, ScalarType.S));
            assertThat(storage.tables().describeTable(account, name).tableName()).isEqualTo(name);
        }
        assertThat(storage.tables().listTables(account)).containsExactly("A_b-c.D9", "a.b", "n".repeat(255));
    }

    @Test
    void badIndexNamesAreRefused() {
        for (String bad : List.of("ix", "bad index", "i".repeat(256))) {
            validation(() -> storage.tables().addGlobalSecondaryIndex(ACCOUNT, TABLE, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating(bad, KeySchema.hashOnly("pk"), Projection.all()))), "index name " + bad);
        }
    }

    @Test
    void oversizedKeysAreRefusedNamingTheAttributeAndTheLimit() {
        StorageException partition = validation(() -> storage.tables().putItem(ACCOUNT, TABLE,
                keyed(AttributeValue.s("p".repeat(2049)), AttributeValue.s("s"))), "a 2049-byte partition key");
        assertThat(partition.getMessage()).contains("partition key attribute 'pk'").contains("2049").contains("2048");
        StorageException sort = validation(() -> storage.tables().putItem(ACCOUNT, TABLE,
                keyed(AttributeValue.s("p"), AttributeValue.s("s".repeat(1025)))), "a 1025-byte sort key");
        assertThat(sort.getMessage()).contains("sort key attribute 'sk'").contains("1025").contains("1024");
        // Multi-byte characters count as their UTF-8 bytes: 683 three-byte characters are 2049 bytes.
        validation(() -> storage.tables().putItem(ACCOUNT, TABLE,
                keyed(AttributeValue.s("\u20ac".repeat(683)), AttributeValue.s("s"))), "2049 UTF-8 bytes");
        StorageException binary = validation(() -> storage.tables().putItem(ACCOUNT, HASH_ONLY,
                TestCassandra.item("pk", AttributeValue.b(new byte[2049]))), "a 2049-byte B partition key");
        assertThat(binary.getMessage()).contains("'pk'").contains("2048");
        // Reads and deletes check the key the same way.
        validation(() -> storage.tables().getItem(ACCOUNT, TABLE, RequestKey.of("pk", AttributeValue.s("p".repeat(2049)), "sk", AttributeValue.s("s"))),
                "get with a 2049-byte partition key");
        validation(() -> storage.tables().deleteItem(ACCOUNT, TABLE, RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.s("s".repeat(1025)))),
                "delete with a 1025-byte sort key");
    }

    @Test
    void keysAtTheLimitsAreStoredAndReadBack() {
        AttributeValue pk = AttributeValue.s("p".repeat(2048));
        AttributeValue sk = AttributeValue.s("\u20ac".repeat(341) + "s");   // 1023 + 1 = 1024 bytes
        storage.tables().putItem(ACCOUNT, TABLE, keyed(pk, sk));
        assertThat(storage.tables().getItem(ACCOUNT, TABLE, RequestKey.of("pk", pk, "sk", sk))).contains(keyed(pk, sk));
        byte[] big = new byte[2048];
        big[0] = (byte) 0xff;
        storage.tables().putItem(ACCOUNT, HASH_ONLY, TestCassandra.item("pk", AttributeValue.b(big)));
        assertThat(storage.tables().getItem(ACCOUNT, HASH_ONLY, RequestKey.of("pk", AttributeValue.b(big)))).isPresent();
        storage.tables().deleteItem(ACCOUNT, TABLE, RequestKey.of("pk", pk, "sk", sk));
        assertThat(storage.tables().getItem(ACCOUNT, TABLE, RequestKey.of("pk", pk, "sk", sk))).isEmpty();
    }

    @Test
    void malformedKeysAndItemsAreRefusedWithNamedErrors() {
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, keyed(AttributeValue.s(""), AttributeValue.s("s"))),
                "an empty S partition key").getMessage()).contains("'pk'").contains("empty");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, HASH_ONLY, TestCassandra.item("pk", AttributeValue.b(new byte[0]))),
                "an empty B key").getMessage()).contains("'pk'").contains("empty");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, keyed(AttributeValue.n("1"), AttributeValue.s("s"))),
                "an N value for an S key").getMessage()).contains("'pk'").contains("declared S");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("a"))),
                "a missing sort key").getMessage()).contains("'sk'");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("a"),
                "sk", AttributeValue.s("s"), "n", new AttributeValue.N("12abc"))), "an invalid number").getMessage())
                .contains("12abc");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("a"),
                "sk", AttributeValue.s("s"), "big", AttributeValue.s("x".repeat(409_600)))), "an item over 400 KB").getMessage())
                .contains("409600");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, keyed(AttributeValue.s("a\uD800b"), AttributeValue.s("s"))),
                "an unpaired surrogate in a key").getMessage()).contains("unpaired UTF-16 surrogate U+D800").contains("'pk'");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("a"),
                "sk", AttributeValue.s("s"), "v", AttributeValue.s("\uDC00"))), "an unpaired surrogate in a value").getMessage())
                .contains("unpaired UTF-16 surrogate U+DC00").contains("'v'");
        assertThat(validation(() -> storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("a"),
                "sk", AttributeValue.s("s"), "g", AttributeValue.s("not a number"))), "an S value for an N index key").getMessage())
                .contains("'g'").contains("by-g").contains("declared N");
        assertThat(validation(() -> storage.tables().getItem(ACCOUNT, TABLE, RequestKey.of("pk", AttributeValue.s("a"))),
                "a key without its sort value").getMessage()).contains("The provided key element does not match the schema");
        assertThat(validation(() -> storage.tables().getItem(ACCOUNT, HASH_ONLY, RequestKey.of("pk", AttributeValue.s("a"))),
                "an S key for a B table").getMessage()).contains("declared B");
        assertThat(StoredData.allItems(storage, ACCOUNT, TABLE).stream().filter(i -> !i.get("pk").equals(AttributeValue.s("p".repeat(2048)))))
                .as("nothing refused was written").isEmpty();
    }
}

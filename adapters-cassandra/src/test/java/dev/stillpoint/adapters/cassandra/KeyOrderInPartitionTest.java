package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * [D2] Inside a partition Cassandra keeps rows in clustering order; the sort key column is typed so
 * that order is {@link KeyOrder#compare}'s: S by UTF-8 bytes (a surrogate pair after U+FFFD), N by
 * value (negative, fractional, 1E-130, 9.9E125, 38 digits a last digit apart), B by unsigned bytes.
 * Checked on the real node, on chosen adversarial values and on generated ones.
 */
class KeyOrderInPartitionTest {

    static CassandraStorage storage;
    static final String ACCOUNT = TestCassandra.account();
    static final String S_TABLE = TestCassandra.tableName("order-s");
    static final String N_TABLE = TestCassandra.tableName("order-n");
    static final String B_TABLE = TestCassandra.tableName("order-b");

    @BeforeContainer
    static void open() {
        storage = TestCassandra.open();
        storage.tables().createTable(TestCassandra.composite(ACCOUNT, S_TABLE, ScalarType.S, ScalarType.S));
        storage.tables().createTable(TestCassandra.composite(ACCOUNT, N_TABLE, ScalarType.S, ScalarType.N));
        storage.tables().createTable(TestCassandra.composite(ACCOUNT, B_TABLE, ScalarType.S, ScalarType.B));
    }

    @AfterContainer
    static void close() {
        TestCassandra.dropAndClose(storage);
    }

    /** Writes {@code values} (shuffled) as sort keys of one fresh partition; the order Cassandra returns them in. */
    static List<AttributeValue> storedOrder(String table, List<AttributeValue> values) {
        String pk = "p-" + TestCassandra.random(12);
        List<AttributeValue> shuffled = new ArrayList<>(values);
        Collections.shuffle(shuffled, new Random(values.size()));
        for (AttributeValue v : shuffled) {
            storage.tables().putItem(ACCOUNT, table, TestCassandra.item("pk", AttributeValue.s(pk), "sk", v));
        }
        List<AttributeValue> order = new ArrayList<>();
        for (Item item : StoredData.partitionItems(storage, ACCOUNT, table, AttributeValue.s(pk))) {
            order.add(item.get("sk"));
        }
        return order;
    }

    static void assertKeyOrder(String table, ScalarType type, List<AttributeValue> values) {
        List<AttributeValue> expected = new ArrayList<>(values);
        expected.sort((a, b) -> KeyOrder.compareValues(type, a, b));
        assertThat(storedOrder(table, values)).as("Cassandra's clustering order of %s sort keys is KeyOrder.compare's", type)
                .containsExactlyElementsOf(expected);
    }

    @Property(tries = 1)
    void stringsByUtf8BytesSurrogatePairsAfterReplacementCharacter() {
        List<AttributeValue> values = List.of("a", "b", "B", "ab", "a\u0000", "\u007f", "\u0080", "\u00e9", "\u07ff",
                "\u0800", "\uE000", "\uFFFC", "\uFFFD", "\uFFFF", "\uD800\uDC00", "\uD83D\uDE00", "\uDBFF\uDFFF",
                "\uFFFD\uD83D\uDE00", "\uD83D\uDE00\uFFFD", "z").stream().map(v -> (AttributeValue) AttributeValue.s(v)).toList();
        // Java's String order (UTF-16) puts U+1F600 before U+FFFD; UTF-8 byte order (and Cassandra's) after.
        assertThat("\uD83D\uDE00".compareTo("\uFFFD")).isNegative();
        assertThat(KeyOrder.compareValues(ScalarType.S, AttributeValue.s("\uD83D\uDE00"), AttributeValue.s("\uFFFD"))).isPositive();
        assertKeyOrder(S_TABLE, ScalarType.S, values);
    }

    @Property(tries = 1)
    void numbersByValue() {
        List<AttributeValue> values = List.of("-9.9E125", "-1E125", "-100", "-10", "-2", "-1.5", "-1", "-0.5", "-1E-130",
                "0", "1E-130", "2E-130", "1E-129", "0.000001", "0.5", "1", "1.5", "2", "9", "10", "11", "100",
                "12345678901234567890123456789012345678", "12345678901234567890123456789012345679",
                "1.2345678901234567890123456789012345678", "1.2345678901234567890123456789012345679",
                "-12345678901234567890123456789012345678", "-12345678901234567890123456789012345679",
                "1E125", "9.9E125").stream().map(v -> (AttributeValue) AttributeValue.n(v)).toList();
        assertKeyOrder(N_TABLE, ScalarType.N, values);
    }

    @Property(tries = 1)
    void binaryByUnsignedBytes() {
        List<AttributeValue> values = List.of(new byte[] {0}, new byte[] {0, 0}, new byte[] {1}, new byte[] {0x7f},
                new byte[] {(byte) 0x80}, new byte[] {(byte) 0x80, 0}, new byte[] {(byte) 0xfe}, new byte[] {(byte) 0xff},
                new byte[] {(byte) 0xff, 0}, new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {0x7f, (byte) 0xff})
                .stream().map(v -> (AttributeValue) AttributeValue.b(v)).toList();
        assertKeyOrder(B_TABLE, ScalarType.B, values);
    }

    @Property(tries = 12)
    void generatedStringsKeepKeyOrder(@ForAll("strings") List<String> values) {
        assertKeyOrder(S_TABLE, ScalarType.S, values.stream().map(v -> (AttributeValue) AttributeValue.s(v)).toList());
    }

    @Property(tries = 12)
    void generatedNumbersKeepKeyOrder(@ForAll("numbers") List<String> values) {
        assertKeyOrder(N_TABLE, ScalarType.N, values.stream().map(v -> (AttributeValue) AttributeValue.n(v)).toList());
    }

    @Property(tries = 12)
    void generatedBinariesKeepKeyOrder(@ForAll("binaries") List<byte[]> values) {
        List<AttributeValue> distinct = new ArrayList<>();
        for (byte[] v : values) {
            AttributeValue b = AttributeValue.b(v);
            if (!distinct.contains(b)) {
                distinct.add(b);
            }
        }
        assertKeyOrder(B_TABLE, ScalarType.B, distinct);
    }

    @Provide
    Arbitrary<List<String>> strings() {
        Arbitrary<String> pair = Arbitraries.integers().between(0x10000, 0x10FFFF).map(Character::toString);
        Arbitrary<String> bmp = Arbitraries.oneOf(
                Arbitraries.chars().range('\u0000', '\u007f').map(String::valueOf),
                Arbitraries.chars().range('\u0080', '\u07ff').map(String::valueOf),
                Arbitraries.chars().range('\u0800', '\ud7ff').map(String::valueOf),
                Arbitraries.chars().range('\ue000', '\uffff').map(String::valueOf),
                Arbitraries.of("\uFFFD", "\uFFFF", "a"));
        Arbitrary<String> piece = Arbitraries.oneOf(pair, bmp);
        return piece.list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("", l)).list().ofMinSize(2).ofMaxSize(20).uniqueElements();
    }

    @Provide
    Arbitrary<List<String>> numbers() {
        Arbitrary<String> digits = Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(38)
                .filter(s -> s.charAt(0) != '0');
        Arbitrary<String> number = net.jqwik.api.Combinators.combine(Arbitraries.of("", "-"), digits,
                Arbitraries.integers().between(-130, 125)).as((sign, d, leading) -> {
                    // d.ddd... E<leading>: the leading digit's magnitude within 1E-130 .. 9.9E125 [D3].
                    String mantissa = d.length() == 1 ? d : d.charAt(0) + "." + d.substring(1);
                    return sign + mantissa + "E" + leading;
                });
        return Arbitraries.oneOf(number, Arbitraries.of("0", "1", "-1", "0.5", "-0.5", "1E-130", "9.9E125", "-9.9E125"))
                .list().ofMinSize(2).ofMaxSize(20)
                .map(l -> l.stream().map(dev.stillpoint.domain.item.DynamoNumber::normalise).distinct().toList());
    }

    @Provide
    Arbitrary<List<byte[]>> binaries() {
        Arbitrary<byte[]> value = Arbitraries.bytes().list().ofMinSize(1).ofMaxSize(6).map(l -> {
            byte[] b = new byte[l.size()];
            for (int i = 0; i < b.length; i++) {
                b[i] = l.get(i);
            }
            return b;
        });
        return value.list().ofMinSize(2).ofMaxSize(20);
    }
}

package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.properties.values.ValueArbitraries.Shape;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple3;
import net.jqwik.api.constraints.IntRange;

/** [D1] key order resolution and [D2] the one key comparator. */
class KeyOrderProperties {

    // ---- D1: resolution

    // [D1] every key attribute defined as S, N or B -> orderable, with the declared types.
    @Property
    void d1_resolves_when_every_key_attribute_is_defined(@ForAll Shape shape, @ForAll boolean extraDefinition) {
        List<AttributeDefinition> definitions = new ArrayList<>(shape.definitions());
        if (extraDefinition) {
            definitions.add(0, new AttributeDefinition("gsiKey", ScalarType.B));
        }
        KeyOrder order = orderOf(shape.schema(), definitions);
        assertThat(order.schema()).isEqualTo(shape.schema());
        assertThat(order.partitionType()).isEqualTo(shape.partition);
        assertThat(order.sortType()).isEqualTo(Optional.ofNullable(shape.sort));
    }

    // [D1] a key attribute without a definition -> unorderable, the reason naming the attribute.
    @Property
    void d1_unorderable_when_a_key_attribute_lacks_a_definition(@ForAll Shape shape, @ForAll boolean dropPartition) {
        List<AttributeDefinition> definitions = new ArrayList<>(shape.definitions());
        String missing = dropPartition || shape.sort == null ? "pk" : "sk";
        definitions.removeIf(d -> d.name().equals(missing));
        KeyOrder.Resolution resolution = KeyOrder.resolve(shape.schema(), definitions);
        assertThat(resolution).isInstanceOfSatisfying(KeyOrder.Unorderable.class,
                u -> assertThat(u.reason()).contains("'" + missing + "'"));
        assertThat(resolution.ordered()).isEmpty();
    }

    // [D1] two definitions of one key attribute with different types leave no single order.
    @Example
    void d1_unorderable_when_a_key_attribute_has_conflicting_definitions() {
        KeyOrder.Resolution resolution = KeyOrder.resolve(KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("pk", ScalarType.N)));
        assertThat(resolution).isInstanceOfSatisfying(KeyOrder.Unorderable.class,
                u -> assertThat(u.reason()).contains("'pk'"));
    }

    // ---- D2: a total order over every key shape

    // [D2] antisymmetric, transitive and consistent with equals, for every key shape, raw invalid N included [S4].
    @Property
    void d2_key_order_is_a_total_order(@ForAll("keyTriples") Tuple3<Shape, List<Key>, Boolean> triple) {
        KeyOrder order = orderOf(triple.get1().schema(), triple.get1().definitions());
        List<Key> keys = triple.get2();
        Key a = keys.get(0);
        Key b = keys.get(1);
        Key c = keys.get(2);
        assertThat(Integer.signum(order.compare(a, b))).isEqualTo(-Integer.signum(order.compare(b, a)));
        assertThat(order.compare(a, b) == 0).isEqualTo(a.equals(b));
        assertThat(order.compare(a, a)).isZero();
        if (order.compare(a, b) <= 0 && order.compare(b, c) <= 0) {
            assertThat(order.compare(a, c)).isLessThanOrEqualTo(0);
        }
        if (order.compare(a, b) < 0 && order.compare(b, c) < 0) {
            assertThat(order.compare(a, c)).isNegative();
        }
    }

    @Provide
    Arbitrary<Tuple3<Shape, List<Key>, Boolean>> keyTriples() {
        return Arbitraries.of(Shape.class).flatMap(shape -> Arbitraries.of(false, true).flatMap(invalid ->
                ValueArbitraries.keys(shape, invalid).list().ofSize(3).map(keys -> Tuple.of(shape, keys, invalid))));
    }

    // [D2] hash first, then range, each by its type's rule: sorting agrees with an independent reference.
    @Property
    void d2_sorting_agrees_with_the_reference_order(@ForAll("keyLists") Tuple.Tuple2<Shape, List<Key>> sample) {
        Shape shape = sample.get1();
        KeyOrder order = orderOf(shape.schema(), shape.definitions());
        List<Key> sorted = new ArrayList<>(sample.get2());
        sorted.sort(order.keyComparator());
        Comparator<Key> reference = reference(shape);
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(reference.compare(sorted.get(i - 1), sorted.get(i))).isLessThanOrEqualTo(0);
        }
    }

    @Provide
    Arbitrary<Tuple.Tuple2<Shape, List<Key>>> keyLists() {
        return Arbitraries.of(Shape.class).flatMap(shape ->
                ValueArbitraries.keys(shape, false).list().ofMaxSize(12).map(keys -> Tuple.of(shape, keys)));
    }

    // [D2] items order by their keys, with the same comparator.
    @Property
    void d2_items_order_by_their_keys(@ForAll("keyTriples") Tuple3<Shape, List<Key>, Boolean> triple) {
        Shape shape = triple.get1();
        KeyOrder order = orderOf(shape.schema(), shape.definitions());
        Key a = triple.get2().get(0);
        Key b = triple.get2().get(1);
        assertThat(order.itemComparator().compare(itemOf(a), itemOf(b))).isEqualTo(order.compare(a, b));
    }

    // [D2] the partition value decides before the sort value is looked at.
    @Property
    void d2_partition_first_then_sort(@ForAll("keyTriples") Tuple3<Shape, List<Key>, Boolean> triple) {
        Shape shape = triple.get1();
        KeyOrder order = orderOf(shape.schema(), shape.definitions());
        Key a = triple.get2().get(0);
        Key b = triple.get2().get(1);
        int byPartition = KeyOrder.compareValues(shape.partition, a.partition(), b.partition());
        if (byPartition != 0 || shape.sort == null) {
            assertThat(Integer.signum(order.compare(a, b))).isEqualTo(Integer.signum(byPartition));
        } else {
            assertThat(Integer.signum(order.compare(a, b)))
                    .isEqualTo(Integer.signum(KeyOrder.compareValues(shape.sort, a.sort().get(), b.sort().get())));
        }
    }

    // ---- D2: N by numeric value

    // [D2] N compares by numeric value, whatever its text order, across the whole allowed range.
    @Property
    void d2_n_compares_by_numeric_value(@ForAll("numbers") BigDecimal x, @ForAll("numbers") BigDecimal y) {
        int expected = Integer.signum(x.compareTo(y));
        assertThat(Integer.signum(KeyOrder.compareValues(ScalarType.N, n(x), n(y)))).isEqualTo(expected);
        // Non-canonical texts of the same values compare the same way.
        assertThat(Integer.signum(KeyOrder.compareValues(ScalarType.N,
                new AttributeValue.N(x.toString()), new AttributeValue.N(y.toEngineeringString())))).isEqualTo(expected);
    }

    @Provide
    Arbitrary<BigDecimal> numbers() {
        return ValueArbitraries.validNumbers();
    }

    // [D2] 38-digit numbers a last digit apart order by that digit, at every scale and sign.
    @Property
    void d2_n_38_digit_neighbours_order_by_their_last_digit(
            @ForAll("thirtyEightDigits") BigInteger unscaled, @ForAll @IntRange(min = -130, max = 125) int magnitude,
            @ForAll boolean negative) {
        BigInteger next = unscaled.add(BigInteger.ONE);
        BigInteger low = negative ? next.negate() : unscaled;
        BigInteger high = negative ? unscaled.negate() : next;
        int scale = 37 - magnitude;
        AttributeValue.N lowN = AttributeValue.N.of(new BigDecimal(low, scale).toString());
        AttributeValue.N highN = AttributeValue.N.of(new BigDecimal(high, scale).toString());
        assertThat(KeyOrder.compareValues(ScalarType.N, lowN, highN)).isNegative();
        assertThat(KeyOrder.compareValues(ScalarType.N, highN, lowN)).isPositive();
    }

    @Provide
    Arbitrary<BigInteger> thirtyEightDigits() {
        // Below 99..9 so that adding one keeps 38 digits.
        return ValueArbitraries.digitsOfLength(38).filter(u -> !u.equals(BigInteger.TEN.pow(38).subtract(BigInteger.ONE)));
    }

    // [D2] the examples K5 names: negative, fractional, the range ends, 38-digit neighbours.
    @Example
    void d2_n_examples_whose_text_and_numeric_orders_differ() {
        List<String> ascending = List.of("-9.9E125", "-10", "-9", "-0.5", "-1E-130", "0", "1E-130", "0.09", "0.1",
                "2", "10", "12345678901234567890123456789012345678", "12345678901234567890123456789012345679",
                "1.2345678901234567890123456789012345678E40", "9.9E125", "9.9999999999999999999999999999999999999E125");
        for (int i = 0; i < ascending.size(); i++) {
            for (int j = 0; j < ascending.size(); j++) {
                int actual = KeyOrder.compareValues(ScalarType.N,
                        AttributeValue.N.of(ascending.get(i)), AttributeValue.N.of(ascending.get(j)));
                assertThat(Integer.signum(actual)).as("%s vs %s", ascending.get(i), ascending.get(j))
                        .isEqualTo(Integer.compare(i, j));
            }
        }
    }

    // [D2][S4] a raw invalid N never crashes the comparator: after every valid number, by UTF-8 bytes.
    @Property
    void d2_invalid_stored_numbers_sort_after_valid_ones(@ForAll("numbers") BigDecimal x, @ForAll("invalidTexts") String raw) {
        assertThat(KeyOrder.compareValues(ScalarType.N, n(x), new AttributeValue.N(raw))).isNegative();
        assertThat(KeyOrder.compareValues(ScalarType.N, new AttributeValue.N(raw), n(x))).isPositive();
    }

    @Provide
    Arbitrary<String> invalidTexts() {
        return ValueArbitraries.invalidNumberTexts();
    }

    // ---- D2: S by UTF-8 bytes, B by unsigned bytes

    // [D2] S compares as unsigned UTF-8 bytes.
    @Property
    void d2_s_compares_as_unsigned_utf8_bytes(@ForAll("strings") String a, @ForAll("strings") String b) {
        int expected = Integer.signum(Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        assertThat(Integer.signum(KeyOrder.compareUtf8(a, b))).isEqualTo(expected);
        assertThat(Integer.signum(KeyOrder.compareValues(ScalarType.S, new AttributeValue.S(a), new AttributeValue.S(b))))
                .isEqualTo(expected);
    }

    @Provide
    Arbitrary<String> strings() {
        return ValueArbitraries.keyStrings();
    }

    // [D2] a surrogate pair (U+1F600) sorts after U+FFFD in UTF-8, where String.compareTo says the opposite.
    @Example
    void d2_s_surrogate_pair_sorts_after_u_fffd_unlike_string_compare_to() {
        String emoji = "\ud83d\ude00";
        String replacement = "\ufffd";
        assertThat(emoji.compareTo(replacement)).isNegative();
        assertThat(KeyOrder.compareUtf8(emoji, replacement)).isPositive();
        assertThat(KeyOrder.compareValues(ScalarType.S, new AttributeValue.S(emoji), new AttributeValue.S(replacement)))
                .isPositive();
        assertThat(KeyOrder.compareUtf8("a" + emoji, "a" + "\ue000")).isPositive();
        assertThat(KeyOrder.compareUtf8("ab", "abc")).isNegative();
        assertThat(KeyOrder.compareUtf8("", "\u0000")).isNegative();
    }

    // [D2] B compares as unsigned bytes, lexicographically, a prefix first.
    @Property
    void d2_b_compares_as_unsigned_bytes(@ForAll("bytes") byte[] a, @ForAll("bytes") byte[] b) {
        int expected = 0;
        int common = Math.min(a.length, b.length);
        for (int i = 0; i < common && expected == 0; i++) {
            expected = Integer.compare(a[i] & 0xff, b[i] & 0xff);
        }
        if (expected == 0) {
            expected = Integer.compare(a.length, b.length);
        }
        assertThat(Integer.signum(KeyOrder.compareValues(ScalarType.B, new AttributeValue.B(a), new AttributeValue.B(b))))
                .isEqualTo(expected);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return ValueArbitraries.keyBytes();
    }

    // [D2] 0x80 sorts after 0x7F (a signed comparison says the opposite); a prefix first.
    @Example
    void d2_b_high_bit_bytes_sort_last() {
        assertThat(KeyOrder.compareUnsigned(new byte[] {(byte) 0x80}, new byte[] {0x7f})).isPositive();
        assertThat(KeyOrder.compareUnsigned(new byte[] {(byte) 0xff}, new byte[] {0x00, 0x00})).isPositive();
        assertThat(KeyOrder.compareUnsigned(new byte[] {0x01}, new byte[] {0x01, 0x00})).isNegative();
        assertThat(KeyOrder.compareUnsigned(new byte[0], new byte[] {0x00})).isNegative();
    }

    // ---- D2: refusals

    // [D2] a value of the wrong type is a validation error naming it.
    @Property
    void d2_wrong_type_refused_naming_the_value(@ForAll ScalarType declared, @ForAll ScalarType actual) {
        Assume.that(declared != actual);
        AttributeValue value = switch (actual) {
            case S -> new AttributeValue.S("sval");
            case N -> AttributeValue.N.of("4711");
            case B -> new AttributeValue.B(new byte[] {1, 2, 3});
        };
        AttributeValue good = switch (declared) {
            case S -> new AttributeValue.S("x");
            case N -> AttributeValue.N.of("1");
            case B -> new AttributeValue.B(new byte[] {9});
        };
        String named = switch (actual) {
            case S -> "sval";
            case N -> "4711";
            case B -> "AQID";
        };
        Expect.validation(() -> KeyOrder.compareValues(declared, good, value), named);
        Expect.validation(() -> KeyOrder.compareValues(declared, value, good), named);
    }

    // [D2] an item missing a key attribute cannot be ordered: a validation error naming the attribute.
    @Example
    void d2_item_without_key_attribute_refused() {
        KeyOrder order = orderOf(Shape.S_N.schema(), Shape.S_N.definitions());
        Item complete = Item.of(Map.of("pk", new AttributeValue.S("a"), "sk", AttributeValue.N.of("1")));
        Item noSort = Item.of(Map.of("pk", new AttributeValue.S("a")));
        Expect.validation(() -> order.compareItems(complete, noSort), "'sk'");
    }

    // [D2][S4] two stored N texts that are not numbers order between themselves by UTF-8 bytes (unsigned).
    @Property
    void d2_invalid_stored_numbers_order_among_themselves_by_utf8_bytes(
            @ForAll("invalidTexts") String a, @ForAll("invalidTexts") String b) {
        int expected = Integer.signum(Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        assertThat(Integer.signum(KeyOrder.compareValues(ScalarType.N, new AttributeValue.N(a), new AttributeValue.N(b))))
                .isEqualTo(expected);
    }

    // [D2] a key whose shape does not match the schema (a sort value missing or extra, or no key at all)
    // is a validation error naming the attribute, never a silent order by the partition alone.
    @Property
    void d2_key_of_the_wrong_shape_refused(@ForAll Shape shape) {
        KeyOrder order = orderOf(shape.schema(), shape.definitions());
        AttributeValue partition = switch (shape.partition) {
            case S -> new AttributeValue.S("p");
            case N -> AttributeValue.N.of("1");
            case B -> new AttributeValue.B(new byte[] {1});
        };
        Key hashOnly = Key.of(partition);
        Key composite = Key.of(partition, new AttributeValue.S("s"));
        Key fitting = shape.sort == null ? hashOnly : Key.of(partition, switch (shape.sort) {
            case S -> new AttributeValue.S("s");
            case N -> AttributeValue.N.of("2");
            case B -> new AttributeValue.B(new byte[] {2});
        });
        Key misfit = shape.sort == null ? composite : hashOnly;
        String named = shape.sort == null ? "hash-only" : "'sk'";
        assertThat(order.compare(fitting, fitting)).isZero();
        Expect.validation(() -> order.compare(fitting, misfit), named);
        Expect.validation(() -> order.compare(misfit, fitting), named);
        Expect.validation(() -> order.compare(null, fitting), "null key");
        Expect.validation(() -> order.compare(fitting, null), "null key");
    }

    // [D2] a wrong-type value is named whole up to 64 characters and cut beyond, with its length.
    @Example
    void d2_wrong_type_refusal_cuts_long_values() {
        AttributeValue.S exactly64 = new AttributeValue.S("v".repeat(64 - "S[value=]".length()));
        assertThat(exactly64.toString()).hasSize(64);
        Expect.validation(() -> KeyOrder.compareValues(ScalarType.N, exactly64, AttributeValue.N.of("1")),
                exactly64.toString());
        assertThatThrownBy(() -> KeyOrder.compareValues(ScalarType.N, exactly64, AttributeValue.N.of("1")))
                .message().doesNotContain("characters)");
        AttributeValue.S longer = new AttributeValue.S("w".repeat(65 - "S[value=]".length()));
        Expect.validation(() -> KeyOrder.compareValues(ScalarType.N, longer, AttributeValue.N.of("1")),
                longer.toString().substring(0, 64) + "... (65 characters)");
        Expect.validation(() -> KeyOrder.compareValues(ScalarType.S, new AttributeValue.S("a"), null), "null S key value");
        Expect.validation(() -> KeyOrder.compareValues(null, new AttributeValue.S("a"), new AttributeValue.S("b")),
                "type");
    }

    // [D1] an order names its key attributes and their types, for logs and messages.
    @Example
    void d1_order_describes_its_key() {
        assertThat(orderOf(Shape.S_N.schema(), Shape.S_N.definitions())).hasToString("KeyOrder[pk:S, sk:N]");
        assertThat(orderOf(Shape.HASH_B.schema(), Shape.HASH_B.definitions())).hasToString("KeyOrder[pk:B]");
    }

    // ---- helpers

    private static KeyOrder orderOf(KeySchema schema, List<AttributeDefinition> definitions) {
        KeyOrder.Resolution resolution = KeyOrder.resolve(schema, definitions);
        assertThat(resolution).isInstanceOf(KeyOrder.Orderable.class);
        return ((KeyOrder.Orderable) resolution).order();
    }

    private static AttributeValue.N n(BigDecimal value) {
        return AttributeValue.N.of(value.toString());
    }

    private static Item itemOf(Key key) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", key.partition());
        key.sort().ifPresent(s -> attributes.put("sk", s));
        attributes.put("payload", new AttributeValue.S("ignored"));
        return Item.of(attributes);
    }

    // Independent of KeyOrder: bytes via String.getBytes, numbers via BigDecimal, bytes signed-to-unsigned by hand.
    private static Comparator<Key> reference(Shape shape) {
        Comparator<Key> byPartition = (a, b) -> referenceValue(shape.partition, a.partition(), b.partition());
        if (shape.sort == null) {
            return byPartition;
        }
        return byPartition.thenComparing((a, b) -> referenceValue(shape.sort, a.sort().get(), b.sort().get()));
    }

    private static int referenceValue(ScalarType type, AttributeValue a, AttributeValue b) {
        return switch (type) {
            case S -> Arrays.compareUnsigned(((AttributeValue.S) a).value().getBytes(StandardCharsets.UTF_8),
                    ((AttributeValue.S) b).value().getBytes(StandardCharsets.UTF_8));
            case N -> new BigDecimal(((AttributeValue.N) a).text()).compareTo(new BigDecimal(((AttributeValue.N) b).text()));
            case B -> {
                byte[] x = ((AttributeValue.B) a).bytes();
                byte[] y = ((AttributeValue.B) b).bytes();
                int c = 0;
                for (int i = 0; i < Math.min(x.length, y.length) && c == 0; i++) {
                    c = Integer.compare(x[i] & 0xff, y[i] & 0xff);
                }
                yield c != 0 ? c : Integer.compare(x.length, y.length);
            }
        };
    }
}

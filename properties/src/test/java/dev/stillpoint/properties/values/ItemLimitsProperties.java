package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** [D3a] names and size limits, and [D3] numbers normalised throughout an item at the put. */
class ItemLimitsProperties {
    private static final KeySchema COMPOSITE = KeySchema.composite("pk", "sk");

    // ---- D3a: table and index names

    // [D3a] 3-255 characters of [a-zA-Z0-9_.-] are valid table and index names.
    @Property
    void d3a_valid_names_accepted(@ForAll("validNames") String name) {
        assertThat(Names.requireTableName(name)).isEqualTo(name);
        assertThat(Names.requireIndexName(name)).isEqualTo(name);
    }

    @Provide
    Arbitrary<String> validNames() {
        return Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9')
                .withChars("_.-").ofMinLength(3).ofMaxLength(255);
    }

    // [D3a] a name with any other character is refused, naming it.
    @Property
    void d3a_names_with_other_characters_refused(@ForAll("validNames") String name, @ForAll @IntRange(max = 300) int at,
                                                 @ForAll("badNameChars") char bad) {
        int position = at % name.length();
        String input = name.substring(0, position) + bad + name.substring(position + 1);
        String shown = Expect.shown(input.substring(0, Math.min(64, input.length())));
        Expect.validation(() -> Names.requireTableName(input), "table name", shown);
        Expect.validation(() -> Names.requireIndexName(input), "index name", shown);
    }

    @Provide
    Arbitrary<Character> badNameChars() {
        return Arbitraries.of(' ', '/', ':', '#', '\u00e9', '\u0000', '*', '+', '\t', '\uff21');
    }

    // [D3a] the length bounds: 3 and 255 accepted, 2 and 256 (and empty, null) refused.
    @Example
    void d3a_name_length_bounds() {
        assertThat(Names.requireTableName("abc")).isEqualTo("abc");
        assertThat(Names.requireTableName("a".repeat(255))).hasSize(255);
        Expect.validation(() -> Names.requireTableName("ab"), "'ab'");
        Expect.validation(() -> Names.requireIndexName("ab"), "'ab'");
        Expect.validation(() -> Names.requireTableName(""), "''");
        Expect.validation(() -> Names.requireTableName(null), "null");
        Expect.validation(() -> Names.requireTableName("b".repeat(256)), "b".repeat(64), "256");
        Expect.validation(() -> Names.requireIndexName("b".repeat(256)), "b".repeat(64), "256");
    }

    // ---- D3a: key value sizes

    // [D3a] an S key value of exactly its limit in UTF-8 bytes (any mix of 1-4 byte characters) is accepted.
    @Property
    void d3a_s_key_at_its_byte_limit_accepted(@ForAll("wideChars") String wide, @ForAll boolean sortKey) {
        int limit = sortKey ? ItemLimits.MAX_SORT_KEY_BYTES : ItemLimits.MAX_PARTITION_KEY_BYTES;
        String atLimit = ofUtf8Length(wide, limit);
        Item item = sortKey ? item("p", atLimit) : item(atLimit, "s");
        assertThat(ItemLimits.validateForPut(item, COMPOSITE, definitions(ScalarType.S, ScalarType.S))).isEqualTo(item);
    }

    // [D3a] one byte over the limit is refused, naming the attribute.
    @Property
    void d3a_s_key_one_byte_over_its_limit_refused(@ForAll("wideChars") String wide, @ForAll boolean sortKey) {
        int limit = sortKey ? ItemLimits.MAX_SORT_KEY_BYTES : ItemLimits.MAX_PARTITION_KEY_BYTES;
        String over = ofUtf8Length(wide, limit + 1);
        Item item = sortKey ? item("p", over) : item(over, "s");
        Expect.validation(() -> ItemLimits.validateForPut(item, COMPOSITE, definitions(ScalarType.S, ScalarType.S)),
                sortKey ? "'sk'" : "'pk'", String.valueOf(limit + 1), String.valueOf(limit));
    }

    @Provide
    Arbitrary<String> wideChars() {
        return Arbitraries.of("a", "\u00e9", "\u20ac", "\ud83d\ude00");
    }

    // [D3a] B key values: exactly 2048 / 1024 bytes accepted, one more refused naming the attribute.
    @Example
    void d3a_b_key_byte_limits() {
        KeySchema schema = COMPOSITE;
        List<AttributeDefinition> defs = definitions(ScalarType.B, ScalarType.B);
        byte[] one = {1};
        assertThat(ItemLimits.validateForPut(bItem(new byte[2048], new byte[1024]), schema, defs)).isNotNull();
        Expect.validation(() -> ItemLimits.validateForPut(bItem(new byte[2049], one), schema, defs), "'pk'", "2049");
        Expect.validation(() -> ItemLimits.validateForPut(bItem(one, new byte[1025]), schema, defs), "'sk'", "1025");
    }

    // [D3a] empty S and B key values are refused, naming the attribute.
    @Property
    void d3a_empty_key_values_refused(@ForAll boolean binary, @ForAll boolean sortKey) {
        ScalarType type = binary ? ScalarType.B : ScalarType.S;
        AttributeValue empty = binary ? new AttributeValue.B(new byte[0]) : new AttributeValue.S("");
        AttributeValue fine = binary ? new AttributeValue.B(new byte[] {7}) : new AttributeValue.S("x");
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", sortKey ? fine : empty);
        attributes.put("sk", sortKey ? empty : fine);
        Expect.validation(() -> ItemLimits.validateForPut(Item.of(attributes), COMPOSITE, definitions(type, type)),
                sortKey ? "'sk'" : "'pk'", "empty");
        // Empty values are fine outside the key.
        attributes.put("sk", fine);
        attributes.put("pk", fine);
        attributes.put("other", empty);
        assertThat(ItemLimits.validateForPut(Item.of(attributes), COMPOSITE, definitions(type, type))).isNotNull();
    }

    // ---- D3a: item size

    // [D3a] an item of exactly 409,600 bytes (names plus values) is accepted; one byte more is refused.
    @Property
    void d3a_item_size_limit(@ForAll("wideChars") String wide, @ForAll @IntRange(min = 1, max = 20) int nameLength) {
        String name = "d".repeat(nameLength);
        long keyBytes = "pk".length() + "p".length() + "sk".length() + "s".length();
        long payload = ItemLimits.MAX_ITEM_BYTES - keyBytes - nameLength;
        Item atLimit = item("p", "s").with(name, new AttributeValue.S(ofUtf8Length(wide, (int) payload)));
        assertThat(atLimit.sizeInBytes()).isEqualTo(ItemLimits.MAX_ITEM_BYTES);
        assertThat(ItemLimits.validateForPut(atLimit, COMPOSITE, definitions(ScalarType.S, ScalarType.S))).isEqualTo(atLimit);

        Item over = item("p", "s").with(name, new AttributeValue.S(ofUtf8Length(wide, (int) payload + 1)));
        assertThat(over.sizeInBytes()).isEqualTo(ItemLimits.MAX_ITEM_BYTES + 1);
        Expect.validation(() -> ItemLimits.validateForPut(over, COMPOSITE, definitions(ScalarType.S, ScalarType.S)),
                "409601", "409600");
    }

    // [D3a] the sizes of the other types, as DynamoDB counts them.
    @Example
    void d3a_value_sizes() {
        assertThat(Item.sizeOf(new AttributeValue.S("h\u00e9\ud83d\ude00"))).isEqualTo(1 + 2 + 4);
        assertThat(Item.sizeOf(new AttributeValue.B(new byte[17]))).isEqualTo(17);
        assertThat(Item.sizeOf(AttributeValue.Bool.TRUE)).isEqualTo(1);
        assertThat(Item.sizeOf(AttributeValue.Null.INSTANCE)).isEqualTo(1);
        assertThat(Item.sizeOf(new AttributeValue.L(List.of(new AttributeValue.S("ab"), AttributeValue.Null.INSTANCE))))
                .isEqualTo(3 + (1 + 2) + (1 + 1)); // [V1] 3 bytes per L plus 1 byte per element (CapacityUnitCalculations.html)
        assertThat(Item.sizeOf(new AttributeValue.M(Map.of("k", new AttributeValue.S("vv"))))).isEqualTo(3 + (1 + 1 + 2));
        assertThat(Item.sizeOf(new AttributeValue.SS(Set.of("a", "bc")))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.BS(List.of(new byte[2], new byte[3])))).isEqualTo(5);
        assertThat(Item.sizeOf(AttributeValue.N.of("12345"))).isEqualTo(4);
        assertThat(Item.sizeOf(AttributeValue.N.of("-0.001"))).isEqualTo(3); // [V1] a sign byte, as measured (NumberSizeTest)
        assertThat(Item.sizeOf(AttributeValue.N.of("9".repeat(38)))).isEqualTo(20);
        assertThat(Item.of(Map.of("ab", new AttributeValue.S("xyz"))).sizeInBytes()).isEqualTo(5);
    }

    // ---- D3a: key presence and type

    // [D3a] a key attribute missing from the item, or of a type other than its definition, is refused naming it.
    @Property
    void d3a_key_attributes_present_and_of_their_declared_type(@ForAll ScalarType declared, @ForAll ScalarType held) {
        AttributeValue value = switch (held) {
            case S -> new AttributeValue.S("12");
            case N -> AttributeValue.N.of("12");
            case B -> new AttributeValue.B(new byte[] {12});
        };
        Item item = Item.of(Map.of("pk", value));
        List<AttributeDefinition> defs = List.of(new AttributeDefinition("pk", declared));
        KeySchema schema = KeySchema.hashOnly("pk");
        if (declared == held) {
            assertThat(ItemLimits.validateForPut(item, schema, defs)).isEqualTo(item);
            Expect.validation(() -> ItemLimits.validateForPut(item, KeySchema.composite("pk", "sk"),
                    List.of(defs.get(0), new AttributeDefinition("sk", ScalarType.S))), "'sk'");
            // A key attribute without a definition cannot be checked, and is the description's fault, not the
            // item's: CreateTable refuses such a key, so only a damaged catalog entry holds one.
            assertThatThrownBy(() -> ItemLimits.validateForPut(item, KeySchema.composite("pk", "sk"), defs))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                        assertThat(e.getMessage()).contains("'sk'").contains("damaged catalog entry");
                    });
        } else {
            Expect.validation(() -> ItemLimits.validateForPut(item, schema, defs), "'pk'", declared.name(), held.name());
        }
        Expect.validation(() -> ItemLimits.validateForPut(Item.of(Map.of("other", value)), schema, defs), "'pk'");
    }

    // [D3a] a long offending value is cut in the message, which still names the attribute.
    @Example
    void d3a_long_values_cut_in_messages() {
        String huge = "x".repeat(5000);
        Item item = item(huge, "s");
        Expect.validation(() -> ItemLimits.validateForPut(item, COMPOSITE, definitions(ScalarType.S, ScalarType.S)),
                "'pk'", "x".repeat(64), "5000 characters");
        try {
            ItemLimits.validateForPut(item, COMPOSITE, definitions(ScalarType.S, ScalarType.S));
        } catch (RuntimeException e) {
            assertThat(e.getMessage()).hasSizeLessThan(300);
        }
    }

    // ---- D3: numbers throughout the item

    // [D3] every N in the item (key, nested in L and M, NS members) is validated and normalised at the put.
    @Property
    void d3_every_number_in_the_item_normalised(@ForAll("numberTexts") String a, @ForAll("numberTexts") String b) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.N(a));
        attributes.put("sk", new AttributeValue.S("s"));
        attributes.put("list", new AttributeValue.L(List.of(new AttributeValue.N(b),
                new AttributeValue.M(Map.of("deep", new AttributeValue.N(a))))));
        attributes.put("set", new AttributeValue.NS(Set.of(a)));
        Item stored = ItemLimits.validateForPut(Item.of(attributes), COMPOSITE, definitions(ScalarType.N, ScalarType.S));

        String ca = DynamoNumber.normalise(a);
        String cb = DynamoNumber.normalise(b);
        assertThat(stored.get("pk")).isEqualTo(new AttributeValue.N(ca));
        assertThat(stored.get("list")).isEqualTo(new AttributeValue.L(List.of(new AttributeValue.N(cb),
                new AttributeValue.M(Map.of("deep", new AttributeValue.N(ca))))));
        assertThat(stored.get("set")).isEqualTo(new AttributeValue.NS(Set.of(ca)));
        // A second put of the stored item changes nothing.
        assertThat(ItemLimits.validateForPut(stored, COMPOSITE, definitions(ScalarType.N, ScalarType.S))).isEqualTo(stored);
    }

    @Provide
    Arbitrary<String> numberTexts() {
        return ValueArbitraries.validNumbers().flatMap(v -> Arbitraries.of(DynamoNumberProperties.variants(v)));
    }

    // [D3] an invalid number anywhere in the item is refused, naming the attribute path and the value.
    @Property
    void d3_invalid_number_anywhere_refused(@ForAll("invalidNumbers") String bad, @ForAll @IntRange(max = 4) int where) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S("p"));
        attributes.put("sk", new AttributeValue.S("s"));
        String path = switch (where) {
            case 0 -> put(attributes, "n", new AttributeValue.N(bad), "n");
            case 1 -> put(attributes, "l", new AttributeValue.L(List.of(AttributeValue.Null.INSTANCE, new AttributeValue.N(bad))), "l[1]");
            case 2 -> put(attributes, "m", new AttributeValue.M(Map.of("inner", new AttributeValue.N(bad))), "m.inner");
            case 3 -> put(attributes, "ns", new AttributeValue.NS(Set.of("1", bad)), "ns");
            default -> put(attributes, "lm", new AttributeValue.L(List.of(new AttributeValue.M(Map.of("x",
                    new AttributeValue.L(List.of(new AttributeValue.N(bad)))))))  , "lm[0].x[0]");
        };
        Expect.validation(() -> ItemLimits.validateForPut(Item.of(attributes), COMPOSITE,
                definitions(ScalarType.S, ScalarType.S)), "'" + path + "'", "'" + bad + "'");
    }

    @Provide
    Arbitrary<String> invalidNumbers() {
        return Arbitraries.of("", "abc", "1e", "--1", "NaN", "Infinity", "0x10", " 1", "1E126", "1E-131",
                "1E999999999999", "1234567890123456789012345678901234567891");
    }

    // [D3] members of a number set that normalise to one value are refused rather than silently merged.
    @Example
    void d3_number_set_members_equal_after_normalisation_refused() {
        Set<String> members = new LinkedHashSet<>(List.of("1", "1.0"));
        Item item = item("p", "s").with("ns", new AttributeValue.NS(members));
        Expect.validation(() -> ItemLimits.validateForPut(item, COMPOSITE, definitions(ScalarType.S, ScalarType.S)),
                "'ns'", "1.0");
    }

    // ---- D3a: sizes as DynamoDB counts them, at the edges

    // [D3a] UTF-8 lengths at each encoding boundary; an unpaired surrogate counts three bytes, as its
    // generalised UTF-8 form would, wherever it stands.
    @Example
    void d3a_utf8_length_at_the_encoding_boundaries() {
        assertThat(Item.utf8Length("")).isZero();
        assertThat(Item.utf8Length("\u007f")).isEqualTo(1);
        assertThat(Item.utf8Length("\u0080")).isEqualTo(2);
        assertThat(Item.utf8Length("\u07ff")).isEqualTo(2);
        assertThat(Item.utf8Length("\u0800")).isEqualTo(3);
        assertThat(Item.utf8Length("\uffff")).isEqualTo(3);
        assertThat(Item.utf8Length("\ud83d\ude00")).isEqualTo(4);
        assertThat(Item.utf8Length("a\ud83d")).isEqualTo(1 + 3);
        assertThat(Item.utf8Length("\ude00a")).isEqualTo(3 + 1);
        assertThat(Item.utf8Length("\ud83d\ud83d\ude00")).isEqualTo(3 + 4);
    }

    // [D3a] for text of whole code points the length is exactly that of the UTF-8 encoding.
    @Property
    void d3a_utf8_length_is_the_utf8_encoding_length(@ForAll("keyStrings") String text) {
        assertThat(Item.utf8Length(text)).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }

    @Provide
    Arbitrary<String> keyStrings() {
        return ValueArbitraries.keyStrings();
    }

    // [D3a][S4] a number counts one byte per two significant digits plus one (zeros between digits are
    // significant, leading and trailing ones are not); a set counts its members; a stored text that is
    // not a number counts its UTF-8 length.
    @Example
    void d3a_number_sizes() {
        assertThat(Item.sizeOf(new AttributeValue.N("101"))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.N("1001"))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.N("100"))).isEqualTo(2);
        assertThat(Item.sizeOf(new AttributeValue.N("-0.00105"))).isEqualTo(4); // [V1] the sign byte, as measured (NumberSizeTest)
        assertThat(Item.sizeOf(new AttributeValue.N("+1.5E2"))).isEqualTo(2);
        assertThat(Item.sizeOf(new AttributeValue.N("0"))).isEqualTo(1); // [V1] zero is one byte, as measured
        assertThat(Item.sizeOf(new AttributeValue.NS(new LinkedHashSet<>(List.of("1", "12345", "101"))))).isEqualTo(2 + 4 + 3);
        assertThat(Item.sizeOf(new AttributeValue.NS(Set.of()))).isZero();
        assertThat(Item.sizeOf(new AttributeValue.N("abc"))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.N("12x45"))).isEqualTo(5);
        assertThat(Item.sizeOf(new AttributeValue.N("\u00e9"))).isEqualTo(2);
        assertThat(Item.sizeOf(new AttributeValue.NS(new LinkedHashSet<>(List.of("1", "n/a"))))).isEqualTo(2 + 3);
    }

    // ---- D3a: what a refusal says

    // [D3a] a key attribute of the wrong type is refused naming the value it holds, of any type.
    @Example
    void d3a_wrong_key_type_refusal_names_the_value_held() {
        KeySchema schema = KeySchema.hashOnly("pk");
        Map<AttributeValue, String> named = new LinkedHashMap<>();
        named.put(new AttributeValue.S("12"), "holds S '12'");
        named.put(new AttributeValue.N("12"), "holds N '12'");
        named.put(new AttributeValue.B(new byte[] {12}), "holds B 'DA=='");
        named.put(AttributeValue.Bool.TRUE, "holds BOOL");
        named.forEach((value, expected) -> {
            ScalarType declared = value instanceof AttributeValue.S ? ScalarType.N : ScalarType.S;
            Expect.validation(() -> ItemLimits.validateForPut(Item.of(Map.of("pk", value)), schema,
                    List.of(new AttributeDefinition("pk", declared))), "'pk'", "declared " + declared, expected);
        });
        Expect.validation(() -> ItemLimits.validateForPut(Item.of(Map.of("pk", AttributeValue.Bool.TRUE)), schema,
                List.of(new AttributeDefinition("pk", ScalarType.S))), "true");
    }

    // [D3a] a refusal shows a name or value whole up to 64 characters, and cuts a longer one, giving its length.
    @Example
    void d3a_refusal_shows_text_whole_up_to_64_characters() {
        String exactly64 = "n".repeat(63) + "/";
        Expect.validation(() -> Names.requireTableName(exactly64), "'" + exactly64 + "'");
        assertThatThrownBy(() -> Names.requireTableName(exactly64)).message().doesNotContain("characters)");
        String longer = "n".repeat(64) + "/";
        Expect.validation(() -> Names.requireTableName(longer), "'" + "n".repeat(64) + "...' (65 characters)");
    }

    // [D3a] two definitions of a key attribute with different types leave its type unknown: refused, naming it.
    @Example
    void d3a_conflicting_key_definitions_refused() {
        Item item = item("p", "s");
        Expect.validation(() -> ItemLimits.validateForPut(item, COMPOSITE, List.of(new AttributeDefinition("pk", ScalarType.S),
                new AttributeDefinition("sk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N))),
                "'sk'", "conflicting", "S", "N");
        // The same definition twice is no conflict.
        assertThat(ItemLimits.validateForPut(item, COMPOSITE, List.of(new AttributeDefinition("pk", ScalarType.S),
                new AttributeDefinition("sk", ScalarType.S), new AttributeDefinition("sk", ScalarType.S)))).isEqualTo(item);
    }

    // [D3a] a put without an item, a key schema or definitions is a validation error saying which is missing.
    @Example
    void d3a_missing_put_arguments_refused() {
        List<AttributeDefinition> defs = definitions(ScalarType.S, ScalarType.S);
        Expect.validation(() -> ItemLimits.validateForPut(null, COMPOSITE, defs), "item must not be null");
        Expect.validation(() -> ItemLimits.validateForPut(item("p", "s"), null, defs), "key schema must not be null");
        Expect.validation(() -> ItemLimits.validateForPut(item("p", "s"), COMPOSITE, null),
                "attribute definitions must not be null");
    }

    // [D3a, R6] a get or delete without a key or a key schema, and a stored number without its text, are
    // validation errors saying which is missing (not a NullPointerException from deeper down).
    @Example
    void d3a_missing_key_arguments_refused() {
        List<AttributeDefinition> defs = definitions(ScalarType.S, ScalarType.S);
        dev.stillpoint.domain.item.Key key = dev.stillpoint.domain.item.Key.of(AttributeValue.s("a"), AttributeValue.s("b"));
        Expect.validation(() -> ItemLimits.validateKey("t", null, COMPOSITE, defs), "key must not be null");
        Expect.validation(() -> ItemLimits.validateKey("t", key, null, defs), "key schema must not be null");
        Expect.validation(() -> AttributeValue.N.fromStored(null), "N text must not be null");
    }

    // [D3] an invalid number in an item is refused with the reason, not only the value.
    @Example
    void d3_invalid_number_refusal_in_an_item_says_why() {
        Map<String, String> reasons = Map.of(
                "1E126", "above 10^125", "1E-131", "below 10^-130",
                "1".repeat(39), "more than 38 significant digits", "1e", "expected exponent digits",
                "1.5x", "'x' at position 3");
        reasons.forEach((bad, reason) -> Expect.validation(() -> ItemLimits.validateForPut(
                item("p", "s").with("n", new AttributeValue.N(bad)), COMPOSITE, definitions(ScalarType.S, ScalarType.S)),
                "'n'", bad, reason));
    }

    // ---- helpers

    private static String put(Map<String, AttributeValue> attributes, String name, AttributeValue value, String path) {
        attributes.put(name, value);
        return path;
    }

    private static List<AttributeDefinition> definitions(ScalarType partition, ScalarType sort) {
        return List.of(new AttributeDefinition("pk", partition), new AttributeDefinition("sk", sort));
    }

    private static Item item(String pk, String sk) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S(pk));
        attributes.put("sk", new AttributeValue.S(sk));
        return Item.of(attributes);
    }

    private static Item bItem(byte[] pk, byte[] sk) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.B(pk));
        attributes.put("sk", new AttributeValue.B(sk));
        return Item.of(attributes);
    }

    /** {@code wide} repeated, padded with ASCII to exactly {@code bytes} UTF-8 bytes. */
    private static String ofUtf8Length(String wide, int bytes) {
        int width = wide.getBytes(StandardCharsets.UTF_8).length;
        String text = wide.repeat(bytes / width) + "a".repeat(bytes % width);
        assertThat(text.getBytes(StandardCharsets.UTF_8)).hasSize(bytes);
        return text;
    }

    // [D2, D3a] a key given for a get or delete has the schema's parts, each of its declared type and size,
    // and comes back with its numbers normalised; anything else is a validation error naming the table.
    @Example
    void d3a_aGivenKeyIsCheckedAgainstTheSchema() {
        KeySchema composite = KeySchema.composite("pk", "sk");
        List<AttributeDefinition> definitions = List.of(new AttributeDefinition("pk", ScalarType.S),
                new AttributeDefinition("sk", ScalarType.N));
        assertThat(ItemLimits.validateKey("t", dev.stillpoint.domain.item.Key.of(AttributeValue.s("a"),
                new AttributeValue.N("1.50")), composite, definitions))
                .isEqualTo(dev.stillpoint.domain.item.Key.of(AttributeValue.s("a"), AttributeValue.n("1.5")));
        Expect.validation(() -> ItemLimits.validateKey("orders", dev.stillpoint.domain.item.Key.of(AttributeValue.s("a")),
                composite, definitions), "table 'orders'", "'pk' + 'sk'", "lacks a sort value");
        Expect.validation(() -> ItemLimits.validateKey("orders", dev.stillpoint.domain.item.Key.of(AttributeValue.s("a"),
                AttributeValue.n("1")), KeySchema.hashOnly("pk"), definitions), "'pk' (hash only)", "has a sort value");
        Expect.validation(() -> ItemLimits.validateKey("orders", dev.stillpoint.domain.item.Key.of(AttributeValue.s("a"),
                AttributeValue.s("x")), composite, definitions), "sk");
        Expect.validation(() -> ItemLimits.validateKey("orders", dev.stillpoint.domain.item.Key.of(
                AttributeValue.s("p".repeat(ItemLimits.MAX_PARTITION_KEY_BYTES + 1))), KeySchema.hashOnly("pk"),
                definitions), "pk");
    }
}

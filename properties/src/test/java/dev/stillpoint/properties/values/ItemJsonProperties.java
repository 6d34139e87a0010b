package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The one codec between an item and DynamoDB JSON text, the form every adapter stores and the CLI
 * exports: exact canonical text out, strict parsing in, numbers taken as stored [S4].
 */
class ItemJsonProperties {

    // ---------------------------------------------------------------------------------------------
    // Round trips

    // [S4] an item written and read back is the item, whatever its values: every type, nested L and
    // M, strings with quotes, backslashes, control characters, surrogates, empty strings; canonical
    // numbers and raw invalid ones. And the canonical text read and written again is the same text.
    @Property
    void s4_items_round_trip_as_stored(@ForAll("items") Item item) {
        String text = ItemJson.encode(item);
        Item back = ItemJson.decode(text);
        assertThat(back).isEqualTo(item);
        assertThat(ItemJson.encode(back)).isEqualTo(text);
        assertSameOrder(back.attributes(), item.attributes());
    }

    // The wire format, exactly: compact, attributes in the item's order, tags as DynamoDB spells them.
    @Example
    void itemJson_writes_the_wire_format_exactly() {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S("a"));
        attributes.put("n", new AttributeValue.N("1.5"));
        attributes.put("b", new AttributeValue.B(new byte[] {0, 1}));
        attributes.put("t", AttributeValue.Bool.TRUE);
        attributes.put("f", AttributeValue.Bool.FALSE);
        attributes.put("z", AttributeValue.Null.INSTANCE);
        attributes.put("l", new AttributeValue.L(List.of(new AttributeValue.S("x"))));
        attributes.put("m", new AttributeValue.M(Map.of("k", new AttributeValue.N("1"))));
        attributes.put("ss", new AttributeValue.SS(new LinkedHashSet<>(List.of("a", "b"))));
        attributes.put("ns", new AttributeValue.NS(Set.of("1")));
        attributes.put("bs", new AttributeValue.BS(List.of(new byte[] {0, 1})));
        attributes.put("e", new AttributeValue.L(List.of()));
        Item item = Item.of(attributes);
        String text = "{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1.5\"},\"b\":{\"B\":\"AAE=\"},\"t\":{\"BOOL\":true},"
                + "\"f\":{\"BOOL\":false},\"z\":{\"NULL\":true},\"l\":{\"L\":[{\"S\":\"x\"}]},"
                + "\"m\":{\"M\":{\"k\":{\"N\":\"1\"}}},\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\"]},"
                + "\"bs\":{\"BS\":[\"AAE=\"]},\"e\":{\"L\":[]}}";
        assertThat(ItemJson.encode(item)).isEqualTo(text);
        assertThat(ItemJson.decode(text)).isEqualTo(item);
        assertThat(ItemJson.encode(ItemJson.decode(text))).isEqualTo(text);
        assertThat(ItemJson.encode(Item.of(Map.of()))).isEqualTo("{}");
        assertThat(ItemJson.decode("{}").attributes()).isEmpty();
    }

    // Attribute and map entry order is the item's, both ways.
    @Example
    void itemJson_keeps_attribute_and_map_order() {
        String text = "{\"z\":{\"M\":{\"y\":{\"S\":\"1\"},\"b\":{\"S\":\"2\"},\"x\":{\"S\":\"3\"}}},\"a\":{\"NULL\":true},"
                + "\"m\":{\"SS\":[\"q\",\"c\",\"k\"]}}";
        Item item = ItemJson.decode(text);
        assertThat(item.attributes().keySet()).containsExactly("z", "a", "m");
        assertThat(((AttributeValue.M) item.get("z")).values().keySet()).containsExactly("y", "b", "x");
        assertThat(((AttributeValue.SS) item.get("m")).values()).containsExactly("q", "c", "k");
        assertThat(ItemJson.encode(item)).isEqualTo(text);
    }

    // ---------------------------------------------------------------------------------------------
    // Strings

    // Strings are escaped per RFC 8259 and no more: '"', '\' and characters below U+0020 (the short
    // forms where JSON has them, else lower-case backslash-u00XX); everything else, surrogates included, as is.
    @Property
    void itemJson_strings_escape_only_quote_backslash_and_control_characters(@ForAll("jsonStrings") String text) {
        Item item = Item.of(Map.of(text, new AttributeValue.S(text)));
        String expected = "{\"" + referenceEscape(text) + "\":{\"S\":\"" + referenceEscape(text) + "\"}}";
        assertThat(ItemJson.encode(item)).isEqualTo(expected);
        assertThat(ItemJson.decode(expected)).isEqualTo(item);
    }

    // Every JSON spelling of a string is read: each character as a backslash-uXXXX escape (upper or lower case hex,
    // surrogate pairs as two escapes), the short forms, and '\/'.
    @Property
    void itemJson_reads_every_escape_spelling(@ForAll("jsonStrings") String text, @ForAll boolean upperHex) {
        StringBuilder escaped = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            String hex = String.format("%04x", (int) text.charAt(i));
            escaped.append("\\u").append(upperHex ? hex.toUpperCase(Locale.ROOT) : hex);
        }
        Item item = ItemJson.decode("{\"a\":{\"S\":\"" + escaped + "\"},\"m\":{\"M\":{\"" + escaped
                + "\":{\"SS\":[\"" + escaped + "\"]}}}}");
        assertThat(item.get("a")).isEqualTo(new AttributeValue.S(text));
        assertThat(item.get("m")).isEqualTo(new AttributeValue.M(Map.of(text, new AttributeValue.SS(Set.of(text)))));

        Item shortForms = ItemJson.decode("{\"a\":{\"S\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00x\"}}");
        assertThat(shortForms.get("a")).isEqualTo(new AttributeValue.S("\"\\/\b\f\n\r\t\u00e9\ud83d\ude00x"));
        assertThat(ItemJson.decode("{\"a\":{\"\\u0053\":\"x\"}}").get("a")).isEqualTo(new AttributeValue.S("x"));
    }

    // Whitespace between tokens is insignificant (RFC 8259): any pretty-printing reads the same item.
    @Property
    void itemJson_whitespace_between_tokens_is_insignificant(@ForAll("items") Item item,
            @ForAll("whitespace") List<String> gaps) {
        String spaced = spaceOut(ItemJson.encode(item), gaps);
        assertThat(ItemJson.decode(spaced)).isEqualTo(item);
    }

    // ---------------------------------------------------------------------------------------------
    // Binary

    // B and BS are standard base64 with padding, and only that base64 is read.
    @Property
    void itemJson_binary_is_standard_padded_base64(@ForAll("binaries") byte[] bytes) {
        String base64 = Base64.getEncoder().encodeToString(bytes);
        Item item = Item.of(Map.of("b", new AttributeValue.B(bytes)));
        assertThat(ItemJson.encode(item)).isEqualTo("{\"b\":{\"B\":\"" + base64 + "\"}}");
        assertThat(ItemJson.decode("{\"b\":{\"B\":\"" + base64 + "\"}}")).isEqualTo(item);
        if (base64.endsWith("=")) {
            String unpadded = base64.replace("=", "");
            Expect.validation(() -> ItemJson.decode("{\"b\":{\"B\":\"" + unpadded + "\"}}"), "position 10", "base64");
        }
    }

    @Example
    void itemJson_refuses_non_canonical_base64() {
        for (String bad : List.of("A", "AA", "AAE", "AB==", "AAF=", "AA=A", "=AAA", "A===", "AA==AA==", "A-E=", "A_E=",
                "AA E", "AAE=\\n", "\u00c0AE=", "AAAAA")) {
            Expect.validation(() -> ItemJson.decode("{\"b\":{\"B\":\"" + bad + "\"}}"), "position 10", "invalid base64");
            Expect.validation(() -> ItemJson.decode("{\"b\":{\"BS\":[\"AAE=\",\"" + bad + "\"]}}"), "position 19", "invalid base64");
        }
        // An escaped '/' is still the same base64.
        assertThat(ItemJson.decode("{\"b\":{\"B\":\"\\/w==\"}}").get("b")).isEqualTo(new AttributeValue.B(new byte[] {(byte) 0xff}));
    }

    // ---------------------------------------------------------------------------------------------
    // Numbers

    // [S4] a number is read as stored: a valid one normalised, an invalid one kept raw, never refused;
    // the same for NS members. Written, a number's text is exactly the text held.
    @Property
    void s4_numbers_are_read_as_stored_and_never_refused(@ForAll("numberLikeTexts") String text) {
        String json = "{\"n\":{\"N\":\"" + referenceEscape(text) + "\"},\"ns\":{\"NS\":[\"" + referenceEscape(text) + "\"]}}";
        Item item = ItemJson.decode(json);
        AttributeValue.N expected = AttributeValue.N.fromStored(text);
        assertThat(item.get("n")).isEqualTo(expected);
        assertThat(item.get("ns")).isEqualTo(new AttributeValue.NS(Set.of(expected.text())));
        Item held = Item.of(Map.of("n", new AttributeValue.N(text)));
        assertThat(ItemJson.encode(held)).isEqualTo("{\"n\":{\"N\":\"" + referenceEscape(text) + "\"}}");
    }

    @Example
    void s4_number_examples() {
        assertThat(ItemJson.decode("{\"n\":{\"N\":\"1.50\"}}").get("n")).isEqualTo(new AttributeValue.N("1.5"));
        assertThat(ItemJson.decode("{\"n\":{\"N\":\"-0\"}}").get("n")).isEqualTo(new AttributeValue.N("0"));
        assertThat(ItemJson.decode("{\"n\":{\"N\":\"1E999\"}}").get("n")).isEqualTo(new AttributeValue.N("1E999"));
        assertThat(ItemJson.decode("{\"n\":{\"N\":\"\"}}").get("n")).isEqualTo(new AttributeValue.N(""));
        assertThat(ItemJson.decode("{\"n\":{\"N\":\"not a number\"}}").get("n")).isEqualTo(new AttributeValue.N("not a number"));
        assertThat(ItemJson.encode(Item.of(Map.of("n", new AttributeValue.N("1.50"))))).isEqualTo("{\"n\":{\"N\":\"1.50\"}}");
        assertThat(ItemJson.decode("{\"n\":{\"NS\":[\"1.0\",\"2\",\"x\"]}}").get("n"))
                .isEqualTo(new AttributeValue.NS(Set.of("1", "2", "x")));
    }

    // ---------------------------------------------------------------------------------------------
    // Nesting

    // L and M nest at most 64 levels deep, both ways; a 65th level is a validation error, and a text
    // nested far deeper is refused at its 65th level, not with a stack overflow.
    @Example
    void itemJson_nesting_limit_is_64_levels() {
        AttributeValue deepest = new AttributeValue.S("x");
        for (int level = 1; level <= ItemJson.MAX_NESTING; level++) {
            deepest = level % 2 == 0 ? new AttributeValue.L(List.of(deepest)) : new AttributeValue.M(Map.of("k", deepest));
        }
        Item limit = Item.of(Map.of("d", deepest));
        assertThat(ItemJson.decode(ItemJson.encode(limit))).isEqualTo(limit);
        Item beyond = Item.of(Map.of("d", new AttributeValue.L(List.of(deepest))));
        Expect.validation(() -> ItemJson.encode(beyond), "'d'", "64");

        assertThat(ItemJson.decode(nestedLists(64)).get("d")).isInstanceOf(AttributeValue.L.class);
        int tag65 = "{\"d\":".length() + 64 * "{\"L\":[".length() + 1;
        Expect.validation(() -> ItemJson.decode(nestedLists(65)), "position " + tag65, "64 levels");
        Expect.validation(() -> ItemJson.decode(nestedLists(100_000)), "position " + tag65, "64 levels");
        String mapsTooDeep = "{\"d\":" + "{\"M\":{\"k\":".repeat(65) + "{\"NULL\":true}" + "}}".repeat(65) + "}";
        Expect.validation(() -> ItemJson.decode(mapsTooDeep), "position " + ("{\"d\":".length() + 64 * 10 + 1));
    }

    private static String nestedLists(int levels) {
        return "{\"d\":" + "{\"L\":[".repeat(levels) + "{\"NULL\":true}" + "]}".repeat(levels) + "}";
    }

    // ---------------------------------------------------------------------------------------------
    // Refusals

    // Each deviation from the shape is a validation error naming the position and showing the text there.
    @Example
    void itemJson_refusals_name_the_position() {
        refused("{\"a\":{\"X\":\"1\"}}", 6, "unknown type tag 'X'", "'\"X\":\"1\"}}')");
        refused("{\"a\":{\"s\":\"1\"}}", 6, "unknown type tag 's'");
        refused("{\"a\":{\"SSS\":[]}}", 6, "unknown type tag 'SSS'");
        refused("{\"a\":{\"S\":\"1\",\"N\":\"2\"}}", 13, "more than one type tag");
        refused("{\"a\":{\"S\":\"1\"}}x", 15, "after the item");
        refused("{\"a\":{\"S\":\"1\"}}{}", 15, "after the item");
        refused("{\"a\":{\"S\":\"1\"},\"a\":{\"S\":\"2\"}}", 15, "duplicate attribute name 'a'");
        refused("{\"m\":{\"M\":{\"k\":{\"S\":\"1\"},\"k\":{\"S\":\"1\"}}}}", 25, "duplicate M key 'k'");
        refused("{\"s\":{\"SS\":[\"x\",\"y\",\"x\"]}}", 20, "duplicate SS member 'x'");
        refused("{\"s\":{\"NS\":[\"1\",\"1.0\"]}}", 16, "duplicate NS member");
        refused("{\"s\":{\"BS\":[\"AA==\",\"AA==\"]}}", 19, "duplicate BS member");
        refused("{\"a\":{\"S\":1}}", 10, "expected a string for the S value");
        refused("{\"a\":{\"N\":1.5}}", 10, "expected a string for the N value");
        refused("{\"a\":{\"B\":null}}", 10, "expected a base64 string");
        refused("{1:{\"S\":\"a\"}}", 1, "expected a string for the attribute name");
        refused("{\"m\":{\"M\":{1:{\"S\":\"a\"}}}}", 11, "expected a string for the M key");
        refused("{\"a\":{\"SS\":[\"x\",1]}}", 16, "expected a string for the SS member");
        refused("{\"a\":{\"NS\":[1]}}", 12, "expected a string for the NS member");
        refused("{\"a\":{\"BOOL\":\"true\"}}", 13, "expected true or false");
        refused("{\"a\":{\"BOOL\":tru}}", 13, "expected true or false");
        refused("{\"a\":{\"NULL\":false}}", 13, "NULL must be true");
        refused("{\"a\":{}}", 6, "expected a type tag");
        refused("{\"a\":\"x\"}", 5, "expected '{' to open a typed value");
        refused("{\"a\":{\"L\":{}}}", 10, "expected '['");
        refused("{\"a\":{\"M\":[]}}", 10, "expected '{'");
        refused("{\"a\":{\"SS\":\"x\"}}", 11, "expected '['");
        refused("{\"a\":{\"L\":[{\"S\":\"x\"},]}}", 21, "expected '{' to open a typed value");
        refused("{\"a\":{\"S\":\"x\"},}", 15, "expected a string for the attribute name");
        refused("{\"a\":{\"S\":\"x\"}", 14, "end of input");
        refused("{\"a\":{\"S\":\"x\"}]", 14, "expected ',' or '}'");
        refused("{\"a\" {\"S\":\"x\"}}", 5, "expected ':'");
        refused("{\"a\":{\"S\" \"x\"}}", 10, "expected ':'");
        refused("{\"a\":{\"S\":\"x\"", 13, "end of input");
        refused("{\"a\":{\"S\":\"abc}}", 10, "unterminated string");
        refused("{\"a\":{\"S\":\"a\u0001b\"}}", 12, "unescaped control character U+0001", "\\u0001");
        refused("{\"a\":{\"S\":\"a\\xb\"}}", 12, "invalid escape '\\x'");
        refused("{\"a\":{\"S\":\"\\u12\"}}", 11, "\\u escape");
        refused("{\"a\":{\"S\":\"\\u12g4\"}}", 11, "\\u escape");
        refused("{\"a\":{\"S\":\"\\u\uff11234\"}}", 11, "\\u escape");
        refused("", 0, "end of input", "expected '{'");
        refused("   ", 3, "end of input");
        refused("[]", 0, "expected '{' to open the item");
        refused("\ufeff{}", 0, "expected '{'");
        refused("{\"a\":{\"L\":[{\"S\":\"x\"}{\"S\":\"y\"}]}}", 20, "expected ',' or ']'");
        Expect.validation(() -> ItemJson.decode(null), "null");
    }

    // The excerpt is cut, so a message stays short whatever the item's size.
    @Example
    void itemJson_refusal_excerpt_is_short() {
        String big = "{\"a\":{\"Q\":\"" + "x".repeat(100_000) + "\"}}";
        StorageException e = (StorageException) catchThrowable(() -> ItemJson.decode(big));
        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(e.getMessage()).contains("position 6").hasSizeLessThan(200);
    }

    // Any text is either an item or a validation error: truncated, extended or corrupted canonical
    // text never escapes as another exception, and a strict prefix of an item is never an item.
    @Property
    void itemJson_damaged_text_is_refused_or_read_never_crashes(@ForAll("items") Item item,
            @ForAll @IntRange(min = 0, max = 10_000) int at, @ForAll("damage") char damage) {
        String text = ItemJson.encode(item);
        int cut = at % text.length();
        assertValidationError(text.substring(0, cut));
        if (damage == ' ') {
            assertThat(ItemJson.decode(text + damage)).isEqualTo(item);
        } else {
            assertValidationError(text + damage);
        }
        String corrupted = text.substring(0, cut) + damage + text.substring(cut + 1);
        assertThatCode(() -> {
            try {
                ItemJson.decode(corrupted);
            } catch (StorageException e) {
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                assertThat(e.getMessage()).contains("position ");
            }
        }).doesNotThrowAnyException();
    }

    @Property
    void itemJson_arbitrary_text_is_an_item_or_a_validation_error(@ForAll("arbitraryTexts") String text) {
        assertThatCode(() -> {
            try {
                ItemJson.decode(text);
            } catch (StorageException e) {
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            }
        }).doesNotThrowAnyException();
    }

    // ---------------------------------------------------------------------------------------------
    // Generators

    @Provide
    Arbitrary<Item> items() {
        return Arbitraries.maps(strings(), values(3)).ofMaxSize(8).map(Item::of);
    }

    @Provide
    Arbitrary<String> jsonStrings() {
        return strings();
    }

    @Provide
    Arbitrary<byte[]> binaries() {
        return bytes();
    }

    /** Values of every type; L and M down to {@code depth} more levels. */
    static Arbitrary<AttributeValue> values(int depth) {
        Arbitrary<AttributeValue> scalars = Arbitraries.frequencyOf(
                Tuple.of(4, strings().map(AttributeValue.S::new)),
                Tuple.of(3, storedNumbers().map(AttributeValue.N::new)),
                Tuple.of(2, bytes().map(AttributeValue.B::new)),
                Tuple.of(2, Arbitraries.of(AttributeValue.Bool.TRUE, AttributeValue.Bool.FALSE, AttributeValue.Null.INSTANCE)),
                Tuple.of(1, strings().set().ofMaxSize(4).map(members -> new AttributeValue.SS(new LinkedHashSet<>(members)))),
                Tuple.of(1, storedNumbers().set().ofMaxSize(4).map(AttributeValue.NS::new)),
                Tuple.of(1, bytes().list().ofMaxSize(4).map(ItemJsonProperties::binarySet)));
        if (depth == 0) {
            return scalars;
        }
        Arbitrary<AttributeValue> lists = Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4)
                .map(AttributeValue.L::new);
        Arbitrary<AttributeValue> maps = Arbitraries.maps(strings(), Arbitraries.lazy(() -> values(depth - 1)))
                .ofMaxSize(4).map(AttributeValue.M::new);
        return Arbitraries.frequencyOf(Tuple.of(6, scalars), Tuple.of(1, lists), Tuple.of(1, maps));
    }

    private static AttributeValue.BS binarySet(List<byte[]> members) {
        Map<String, byte[]> distinct = new LinkedHashMap<>();
        for (byte[] member : members) {
            distinct.putIfAbsent(Base64.getEncoder().encodeToString(member), member);
        }
        return new AttributeValue.BS(new ArrayList<>(distinct.values()));
    }

    /** Strings a JSON writer must take care with, and ordinary ones. */
    static Arbitrary<String> strings() {
        Arbitrary<String> awkward = Arbitraries.of("\"", "\\", "/", "\u0000", "\u001f", "\b", "\f", "\n", "\r", "\t",
                        "\u007f", "\u2028", "\ud83d\ude00", "\ud800", "\udfff", "u", "\\u0041", " ", "{", "}", "[", "]",
                        ":", ",", "S", "\"S\":", "true")
                .list().ofMaxSize(6).map(parts -> String.join("", parts));
        Arbitrary<String> controls = Arbitraries.chars().range('\u0000', '\u001f').list().ofMaxSize(4)
                .map(chars -> chars.stream().map(String::valueOf).reduce("", String::concat));
        return Arbitraries.frequencyOf(
                Tuple.of(3, ValueArbitraries.keyStrings()),
                Tuple.of(3, awkward),
                Tuple.of(1, controls),
                Tuple.of(2, Arbitraries.strings().all().ofMaxLength(12)),
                Tuple.of(2, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(10)),
                Tuple.of(1, Arbitraries.just("")));
    }

    /** Number texts a store may hold: canonical ones [D3] and raw invalid ones [S4]. */
    static Arbitrary<String> storedNumbers() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, ValueArbitraries.validNumbers().map(ValueArbitraries::canonical)),
                Tuple.of(1, ValueArbitraries.invalidNumberTexts()));
    }

    /** Texts near and far from numbers: every spelling of valid ones, canonical or not, and junk. */
    @Provide
    Arbitrary<String> numberLikeTexts() {
        Arbitrary<String> spellings = ValueArbitraries.validNumbers().flatMap(v -> Arbitraries.of(
                ValueArbitraries.canonical(v), v.toString(), v.toPlainString(), v.toEngineeringString(),
                v.toPlainString() + (v.scale() > 0 ? "0" : ".0"), "+" + v.toPlainString(), "-" + ValueArbitraries.canonical(v),
                "0" + ValueArbitraries.canonical(v), v.toString().toLowerCase(Locale.ROOT)));
        Arbitrary<String> digitsAndPoints = Arbitraries.strings().withChars("0123456789.-+eE").ofMaxLength(12);
        Arbitrary<String> longDigits = Arbitraries.strings().withChars("0123456789").ofMinLength(36).ofMaxLength(42)
                .flatMap(d -> Arbitraries.of(d, "1" + d, "-1" + d, "0." + d, "1." + d, "-0.0" + d));
        Arbitrary<String> edges = Arbitraries.of("0", "-0", "0.0", "00", "01", "-01", "1.", ".5", "-.5", "0.50", "-0.5",
                "10", "100", "1.10", "-", "", "1E2", "1e2", "9.9E125", "1E126", "1E-130", "1E-131",
                "12345678901234567890123456789012345678", "123456789012345678901234567890123456789",
                "0.00000000000000000000000000000000000001", "\u0661", "\uff11", "1\u0000", "\"", "\\");
        return Arbitraries.frequencyOf(Tuple.of(4, spellings), Tuple.of(2, digitsAndPoints), Tuple.of(1, longDigits),
                Tuple.of(2, edges), Tuple.of(1, ValueArbitraries.invalidNumberTexts()),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(6)));
    }

    /** Byte strings of every length modulo 3, around the sign boundary and beyond. */
    static Arbitrary<byte[]> bytes() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, ValueArbitraries.keyBytes()),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(70)));
    }

    @Provide
    Arbitrary<List<String>> whitespace() {
        return Arbitraries.of("", "", "", " ", "\n", "\t", "\r\n", "  ").list().ofMinSize(1).ofMaxSize(50);
    }

    @Provide
    Arbitrary<Character> damage() {
        return Arbitraries.of('"', '\\', '{', '}', '[', ']', ':', ',', 'x', '0', ' ', '\u0000', '=', 't', 'S', '\ud800');
    }

    @Provide
    Arbitrary<String> arbitraryTexts() {
        Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", ":", ",", "\"", "\"S\"", "\"N\"", "\"B\"", "\"L\"",
                        "\"M\"", "\"SS\"", "\"NS\"", "\"BS\"", "\"BOOL\"", "\"NULL\"", "\"a\"", "\"AAE=\"", "true", "false",
                        "null", "1", " ", "\\", "\\u", "\\u00", "\"\\", "\ud800")
                .list().ofMaxSize(30).map(parts -> String.join("", parts));
        return Arbitraries.frequencyOf(Tuple.of(3, tokens), Tuple.of(1, Arbitraries.strings().all().ofMaxLength(30)));
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers, written independently of the codec

    /** The RFC 8259 escaping the codec promises. */
    static String referenceEscape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.toString();
    }

    /** {@code text} with a gap from {@code gaps} (cycled) before the first and after every punctuation token and string. */
    private static String spaceOut(String text, List<String> gaps) {
        StringBuilder out = new StringBuilder(gaps.get(0));
        boolean inString = false;
        int gap = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c);
            if (inString) {
                if (c == '\\') {
                    out.append(text.charAt(++i));
                } else if (c == '"') {
                    inString = false;
                    out.append(gaps.get(gap++ % gaps.size()));
                }
            } else if (c == '"') {
                inString = true;
            } else if ("{}[]:,".indexOf(c) >= 0) {
                out.append(gaps.get(gap++ % gaps.size()));
            }
        }
        return out.toString();
    }

    private static void assertSameOrder(Map<String, AttributeValue> actual, Map<String, AttributeValue> expected) {
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, AttributeValue> e : expected.entrySet()) {
            AttributeValue other = actual.get(e.getKey());
            if (e.getValue() instanceof AttributeValue.M m) {
                assertSameOrder(((AttributeValue.M) other).values(), m.values());
            } else if (e.getValue() instanceof AttributeValue.L l) {
                List<AttributeValue> others = ((AttributeValue.L) other).values();
                for (int i = 0; i < l.values().size(); i++) {
                    if (l.values().get(i) instanceof AttributeValue.M m) {
                        assertSameOrder(((AttributeValue.M) others.get(i)).values(), m.values());
                    }
                }
            } else if (e.getValue() instanceof AttributeValue.SS ss) {
                assertThat(((AttributeValue.SS) other).values()).containsExactlyElementsOf(ss.values());
            } else if (e.getValue() instanceof AttributeValue.NS ns) {
                assertThat(((AttributeValue.NS) other).values()).containsExactlyElementsOf(ns.values());
            }
        }
    }

    private static void refused(String json, int position, String... named) {
        List<String> expected = new ArrayList<>(List.of(named));
        expected.add("position " + position);
        Expect.validation(() -> ItemJson.decode(json), expected.toArray(String[]::new));
    }

    private static void assertValidationError(String text) {
        Throwable thrown = catchThrowable(() -> ItemJson.decode(text));
        assertThat(thrown).as(text).isInstanceOf(StorageException.class);
        assertThat(((StorageException) thrown).reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(thrown.getMessage()).contains("position ");
    }
}

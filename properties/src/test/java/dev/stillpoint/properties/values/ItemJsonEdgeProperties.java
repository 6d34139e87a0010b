package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Example;

/**
 * [S4] The DynamoDB JSON codec where its fast paths do not go: values wider than the parser's first
 * member stack, type tags spelled with escapes, numbers and base64 outside the usual spellings, and
 * what its refusals say. The general rules are in {@link ItemJsonProperties}.
 */
class ItemJsonEdgeProperties {

    // [S4] items wider than the parser's first stack of members (32) are read back whole: many
    // attributes, long lists, wide maps and sets, and such values nested in one another.
    @Example
    void s4_wide_items_round_trip() {
        for (int width : List.of(33, 64, 65, 200)) {
            Map<String, AttributeValue> attributes = new LinkedHashMap<>();
            List<AttributeValue> list = new ArrayList<>();
            Map<String, AttributeValue> map = new LinkedHashMap<>();
            Set<String> strings = new LinkedHashSet<>();
            Set<String> numbers = new LinkedHashSet<>();
            List<byte[]> binaries = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                attributes.put("a" + i, new AttributeValue.S("v" + i));
                list.add(AttributeValue.N.of(String.valueOf(i)));
                map.put("k" + i, i % 2 == 0 ? AttributeValue.Bool.TRUE : AttributeValue.Null.INSTANCE);
                strings.add("s" + i);
                numbers.add(String.valueOf(-i));
                binaries.add(new byte[] {(byte) i, (byte) (i >> 8)});
            }
            attributes.put("list", new AttributeValue.L(list));
            attributes.put("map", new AttributeValue.M(map));
            attributes.put("ss", new AttributeValue.SS(strings));
            attributes.put("ns", new AttributeValue.NS(numbers));
            attributes.put("bs", new AttributeValue.BS(binaries));
            attributes.put("nested", new AttributeValue.L(List.of(new AttributeValue.M(Map.of(
                    "inner", new AttributeValue.L(list), "wide", new AttributeValue.M(map))), new AttributeValue.L(list))));
            Item item = Item.of(attributes);

            assertThat(ItemJson.decode(ItemJson.encode(item))).as("width %d", width).isEqualTo(item);
        }
    }

    // [S4] long values and zero bytes are read back whole: a string and a binary far longer than the
    // writer's first buffer, and base64 groups that are all zero bits.
    @Example
    void s4_long_values_and_zero_bytes_round_trip() {
        byte[] zeros = new byte[7];
        byte[] mixed = {0, 0, 0, (byte) 0xff, 0, 0, 0, 0, 0, 0};
        byte[] large = new byte[150_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("long", new AttributeValue.S("x\u00e9\ud83d\ude00".repeat(30_000)));
        attributes.put("zeros", new AttributeValue.B(zeros));
        attributes.put("mixed", new AttributeValue.B(mixed));
        attributes.put("large", new AttributeValue.B(large));
        attributes.put("set", new AttributeValue.BS(List.of(zeros, mixed, new byte[3])));
        Item item = Item.of(attributes);

        assertThat(ItemJson.decode(ItemJson.encode(item))).isEqualTo(item);
        assertThat(ItemJson.decode("{\"b\":{\"B\":\"AAAAAAAA\"}}").get("b")).isEqualTo(new AttributeValue.B(new byte[6]));
    }

    // [S4] L and M nest at most 64 levels deep when written too, whichever of them nests: 64 levels of
    // lists alone, or of maps alone, round trip; a 65th is a validation error naming the attribute.
    @Example
    void s4_nesting_limit_applies_to_lists_and_maps_alone() {
        AttributeValue lists = new AttributeValue.S("x");
        AttributeValue maps = new AttributeValue.S("x");
        for (int level = 1; level <= ItemJson.MAX_NESTING; level++) {
            lists = new AttributeValue.L(List.of(lists));
            maps = new AttributeValue.M(Map.of("k", maps));
        }
        for (AttributeValue deepest : List.of(lists, maps)) {
            Item limit = Item.of(Map.of("d", deepest));
            assertThat(ItemJson.decode(ItemJson.encode(limit))).isEqualTo(limit);
        }
        Item listsBeyond = Item.of(Map.of("d", new AttributeValue.L(List.of(lists))));
        Item mapsBeyond = Item.of(Map.of("d", new AttributeValue.M(Map.of("k", maps))));
        Expect.validation(() -> ItemJson.encode(listsBeyond), "'d'", "64 levels");
        Expect.validation(() -> ItemJson.encode(mapsBeyond), "'d'", "64 levels");
    }

    // [S4] a type tag is a JSON string like any other: any escape spelling of a known tag reads as that tag.
    @Example
    void s4_type_tags_read_in_any_escape_spelling() {
        assertThat(ItemJson.decode("{\"a\":{\"\\u0042OOL\":true}}").get("a")).isEqualTo(AttributeValue.Bool.TRUE);
        assertThat(ItemJson.decode("{\"a\":{\"\\u004eULL\":true}}").get("a")).isEqualTo(AttributeValue.Null.INSTANCE);
        assertThat(ItemJson.decode("{\"a\":{\"S\\u0053\":[\"x\"]}}").get("a")).isEqualTo(new AttributeValue.SS(Set.of("x")));
        assertThat(ItemJson.decode("{\"a\":{\"\\u004E\":\"1.50\"}}").get("a")).isEqualTo(new AttributeValue.N("1.5"));
        assertThat(ItemJson.decode("{\"a\":{\"\\u004c\":[]}}").get("a")).isEqualTo(new AttributeValue.L(List.of()));
        assertThat(ItemJson.decode("{\"a\":{\"\\u0042\\u0053\":[\"AA==\"]}}").get("a"))
                .isEqualTo(new AttributeValue.BS(List.of(new byte[1])));
    }

    // [S4] an unknown type tag of any length is refused naming it, never read as a type it resembles.
    @Example
    void s4_unknown_type_tags_of_every_length_refused() {
        for (String tag : List.of("", "X", "s", "SX", "XS", "NN", "BB", "LS", "BOL", "BOOX", "NULX", "BOOLX", "NULLS",
                "BOOLEAN")) {
            Expect.validation(() -> ItemJson.decode("{\"a\":{\"" + tag + "\":true}}"),
                    "unknown type tag '" + tag + "'", "position 6");
            Expect.validation(() -> ItemJson.decode("{\"a\":{\"" + tag + "\\u0020\":true}}"),
                    "unknown type tag '" + tag + " '", "position 6");
        }
    }

    // [S4] base64 is strict about its alphabet beyond ASCII too: a refusal, never a crash.
    @Example
    void s4_base64_outside_ascii_refused() {
        for (String bad : List.of("\u0080AAA", "AA\u00ff=", "\u0100AAA", "AAA\uffff")) {
            Expect.validation(() -> ItemJson.decode("{\"b\":{\"B\":\"" + bad + "\"}}"), "position ");
            Expect.validation(() -> ItemJson.decode("{\"b\":{\"BS\":[\"AA==\",\"" + bad + "\"]}}"), "position ");
        }
    }

    // [S4, D3] a stored valid number is read normalised, however it is spelled: a plus sign, leading
    // zeros, a bare point, trailing fraction zeros, an exponent.
    @Example
    void s4_numbers_in_any_valid_spelling_read_normalised() {
        Map<String, String> spellings = new LinkedHashMap<>();
        spellings.put("+5", "5");
        spellings.put("+.5", "0.5");
        spellings.put("+0", "0");
        spellings.put("+05", "5");
        spellings.put("05", "5");
        spellings.put("-05", "-5");
        spellings.put("5.", "5");
        spellings.put("0.50", "0.5");
        spellings.put("+1E2", "100");
        spellings.put("-0.0", "0");
        spellings.forEach((stored, canonical) -> {
            assertThat(ItemJson.decode("{\"n\":{\"N\":\"" + stored + "\"}}").get("n")).as(stored)
                    .isEqualTo(new AttributeValue.N(canonical));
            assertThat(ItemJson.decode("{\"n\":{\"NS\":[\"" + stored + "\"]}}").get("n")).as(stored)
                    .isEqualTo(new AttributeValue.NS(Set.of(canonical)));
        });
    }

    // [S4] after a first escape the rest of a string is escaped only where RFC 8259 requires it (a
    // space after a newline stays a space), and a string of nothing but control characters, six
    // characters written for each, is written whole however long.
    @Example
    void s4_the_escaped_tail_escapes_only_what_it_must() {
        Item spaced = Item.of(Map.of("s", new AttributeValue.S("a\n b")));
        assertThat(ItemJson.encode(spaced)).as("[S4] a space after an escape").isEqualTo("{\"s\":{\"S\":\"a\\n b\"}}");
        Item controls = Item.of(Map.of("s", new AttributeValue.S("\u0001".repeat(5000))));
        assertThat(ItemJson.encode(controls)).as("[S4] 5,000 escapes written whole")
                .isEqualTo("{\"s\":{\"S\":\"" + "\\u0001".repeat(5000) + "\"}}");
        assertThat(ItemJson.decode(ItemJson.encode(controls))).isEqualTo(controls);
    }

    // [S4] encoding needs an item: a missing one is a validation error saying so.
    @Example
    void s4_encode_refuses_a_missing_item() {
        Expect.validation(() -> ItemJson.encode(null), "item must not be null");
    }

    // [S4] what a refusal says: the type whose value is not closed, the text there as it is (a space is a
    // space), the opening quote of an unterminated string, and the end of input after a last literal.
    @Example
    void s4_refusals_name_the_type_the_text_and_the_position() {
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"N\":\"1\" x y}}"),
                "expected '}' to close the N value", "position 14 ('x y}}')");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"S\":\"1\" x}}"), "close the S value");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"L\":[] x}}"), "close the L value");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"NS\":[] x}}"), "close the NS value");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"BOOL\":false x}}"), "close the BOOL value");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"S\":\"ab\\n"), "unterminated string", "position 10");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"BOOL\":true"),
                "expected '}' to close the BOOL value", "position 17 (end of input)");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"NULL\":true"),
                "expected '}' to close the NULL value", "position 17 (end of input)");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"BOOL\":tr"), "expected true or false", "position 13");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"BOOL\":fals"), "expected true or false", "position 13");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"NULL\":t"), "expected true or false", "position 13");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"S\":\"\u0001b\"}}"),
                "unescaped control character U+0001", "position 11");
        Expect.validation(() -> ItemJson.decode("{\"b\":{\"B\":\"\u0001AA=\"}}"),
                "unescaped control character U+0001", "position 11");
    }
}

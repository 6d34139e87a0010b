package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The value types the key order [D2] and stored items [S4] are built from: immutable, content-equal. */
class AttributeValueProperties {

    // [D2] B is equal by content (so key equality is), and copied in and out.
    @Property
    void d2_binary_values_are_equal_by_content_and_copied(@ForAll("bytes") byte[] bytes) {
        AttributeValue.B b = new AttributeValue.B(bytes);
        AttributeValue.B same = new AttributeValue.B(bytes.clone());
        assertThat(b).isEqualTo(same).hasSameHashCodeAs(same);
        byte[] out = b.bytes();
        if (out.length > 0) {
            out[0]++;
            bytes[0]++;
            assertThat(b).isEqualTo(same);
        }
        assertThat(b.toString()).contains(Base64.getEncoder().encodeToString(same.bytes()));
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return ValueArbitraries.keyBytes();
    }

    // [D2] a binary set is equal by member contents, whatever their order.
    @Example
    void d2_binary_sets_equal_by_content_in_any_order() {
        AttributeValue.BS one = new AttributeValue.BS(List.of(new byte[] {1}, new byte[] {2, 3}));
        AttributeValue.BS other = new AttributeValue.BS(List.of(new byte[] {2, 3}, new byte[] {1}));
        assertThat(one).isEqualTo(other).hasSameHashCodeAs(other);
        assertThat(one).isNotEqualTo(new AttributeValue.BS(List.of(new byte[] {1}, new byte[] {2, 4})));
        List<byte[]> members = one.values();
        members.get(0)[0] = 99;
        assertThat(one).isEqualTo(other);
    }

    // [S4] an N built from storage keeps its text as stored; N.of validates and normalises client input.
    @Example
    void s4_number_keeps_the_stored_text_and_of_normalises() {
        assertThat(new AttributeValue.N("not a number").text()).isEqualTo("not a number");
        assertThat(new AttributeValue.N("not a number").isValid()).isFalse();
        assertThat(new AttributeValue.N("1.50").isValid()).isTrue();
        assertThat(AttributeValue.N.of("1.50").text()).isEqualTo("1.5");
        assertThat(AttributeValue.N.fromStored("1.50").text()).isEqualTo("1.5");
        assertThat(AttributeValue.N.fromStored("1E999").text()).isEqualTo("1E999");
        Expect.validation(() -> AttributeValue.N.of("1.5x"), "'1.5x'");
    }

    // [S4] values and items are immutable snapshots of what they were built from.
    @Example
    void s4_values_and_items_are_immutable() {
        List<AttributeValue> list = new ArrayList<>(List.of(new AttributeValue.S("a")));
        AttributeValue.L l = new AttributeValue.L(list);
        list.add(new AttributeValue.S("b"));
        assertThat(l.values()).hasSize(1);
        assertThatThrownBy(() -> l.values().add(AttributeValue.Null.INSTANCE)).isInstanceOf(UnsupportedOperationException.class);

        Map<String, AttributeValue> attributes = new HashMap<>(Map.of("pk", new AttributeValue.S("a")));
        Item item = Item.of(attributes);
        attributes.put("x", AttributeValue.Bool.TRUE);
        assertThat(item.find("x")).isEmpty();
        assertThat(item.get("x")).isNull();
        assertThat(item.get("pk")).isEqualTo(new AttributeValue.S("a"));
        assertThatThrownBy(() -> item.attributes().put("y", AttributeValue.Null.INSTANCE))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(item.with("x", AttributeValue.Bool.FALSE).get("x")).isEqualTo(AttributeValue.Bool.FALSE);
        assertThat(item.find("x")).isEmpty();
    }

    // [S4] null parts are refused with a message saying which.
    @Example
    void s4_null_parts_refused() {
        Expect.validation(() -> new AttributeValue.S(null), "S value");
        Expect.validation(() -> new AttributeValue.N(null), "N text");
        Expect.validation(() -> new AttributeValue.B(null), "B bytes");
        Expect.validation(() -> new AttributeValue.L(Arrays.asList(AttributeValue.Null.INSTANCE, null)), "L element 1");
        Map<String, AttributeValue> withNull = new HashMap<>();
        withNull.put("a", null);
        Expect.validation(() -> new AttributeValue.M(withNull), "'a'");
        Expect.validation(() -> Item.of(withNull), "'a'");
        Expect.validation(() -> new AttributeValue.SS(null), "SS");
        Expect.validation(() -> new AttributeValue.BS(Arrays.asList(new byte[1], null)), "BS member 1");
    }

    // [S4] every collection refuses a missing collection, member, attribute name or value, saying which.
    @Example
    void s4_null_collection_parts_refused() {
        Expect.validation(() -> Item.of(null), "item attributes must not be null");
        Expect.validation(() -> new AttributeValue.M(null), "M attributes must not be null");
        Expect.validation(() -> new AttributeValue.L(null), "L values");
        Expect.validation(() -> new AttributeValue.NS(null), "NS values");
        Expect.validation(() -> new AttributeValue.BS(null), "BS values");
        Map<String, AttributeValue> nullName = new HashMap<>();
        nullName.put(null, AttributeValue.Null.INSTANCE);
        Expect.validation(() -> Item.of(nullName), "item attribute name must not be null");
        Expect.validation(() -> new AttributeValue.M(nullName), "M attribute name must not be null");
        Set<String> nullMember = new HashSet<>(Arrays.asList("a", null));
        Expect.validation(() -> new AttributeValue.SS(nullMember), "SS member must not be null");
        Expect.validation(() -> new AttributeValue.NS(nullMember), "NS member must not be null");
        Expect.validation(() -> AttributeValue.N.fromStored(null), "N text");
    }

    // [S4] an item finds the attributes it has.
    @Example
    void s4_item_finds_its_attributes() {
        Item item = Item.of(Map.of("pk", new AttributeValue.S("a")));
        assertThat(item.find("pk")).contains(new AttributeValue.S("a"));
        assertThat(item.find("other")).isEmpty();
    }

    // [S4] the short factories build the same values as the constructors; s and b keep the value, n normalises.
    @Example
    void s4_value_factories() {
        assertThat(AttributeValue.s("x")).isEqualTo(new AttributeValue.S("x"));
        assertThat(AttributeValue.n("1.50E1")).isEqualTo(new AttributeValue.N("15"));
        assertThat(AttributeValue.b(new byte[] {1, 2})).isEqualTo(new AttributeValue.B(new byte[] {1, 2}));
        Expect.validation(() -> AttributeValue.n("1.5.0"), "'1.5.0'");
    }

    // [S4] a binary set says how many members it has and prints them in base64, in the order given.
    @Example
    void s4_binary_set_size_and_text() {
        AttributeValue.BS bs = new AttributeValue.BS(List.of(new byte[] {1}, new byte[] {2, 3}, new byte[0]));
        assertThat(bs.size()).isEqualTo(3);
        assertThat(bs.totalLength()).isEqualTo(3);
        assertThat(bs).hasToString("BS[AQ==, AgM=, ]");
        assertThat(new AttributeValue.BS(List.of())).hasToString("BS[]");
        assertThat(new AttributeValue.BS(List.of()).size()).isZero();
        assertThat(new AttributeValue.B(new byte[] {(byte) 0xfb, (byte) 0xff})).hasToString("B[+/8=]");
    }

    // [S4] type names are DynamoDB's.
    @Example
    void s4_type_names() {
        assertThat(List.of(new AttributeValue.S("a"), AttributeValue.N.of("1"), new AttributeValue.B(new byte[0]),
                        AttributeValue.Bool.TRUE, AttributeValue.Null.INSTANCE, new AttributeValue.L(List.of()),
                        new AttributeValue.M(Map.of()), new AttributeValue.SS(Set.of()), new AttributeValue.NS(Set.of()),
                        new AttributeValue.BS(List.of())))
                .extracting(AttributeValue::typeName)
                .containsExactly("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS");
    }

    // [D2] a key needs its parts: a missing partition or sort value, item or schema is a validation error.
    @Example
    void d2_key_parts_required() {
        Expect.validation(() -> Key.of((AttributeValue) null), "key partition value");
        Expect.validation(() -> Key.of(new AttributeValue.S("a"), (AttributeValue) null), "key sort value");
        Expect.validation(() -> Key.of(null, KeySchema.hashOnly("pk")), "item");
        Expect.validation(() -> Key.of(Item.of(Map.of("pk", new AttributeValue.S("a"))), null), "key schema");
        assertThat(new Key(new AttributeValue.S("a"), null)).isEqualTo(Key.of(new AttributeValue.S("a")));
    }

    // [D2] Key.of takes the key attributes; a missing one is a validation error naming it.
    @Example
    void d2_key_of_an_item() {
        Item item = Item.of(Map.of("pk", new AttributeValue.S("a"), "sk", AttributeValue.N.of("2"), "x", AttributeValue.Bool.TRUE));
        assertThat(Key.of(item, KeySchema.composite("pk", "sk"))).isEqualTo(Key.of(new AttributeValue.S("a"), AttributeValue.N.of("2")));
        assertThat(Key.of(item, KeySchema.hashOnly("pk"))).isEqualTo(Key.of(new AttributeValue.S("a")));
        Expect.validation(() -> Key.of(item, KeySchema.composite("pk", "missing")), "'missing'");
        Expect.validation(() -> Key.of(item, KeySchema.hashOnly("nope")), "'nope'");
    }
}

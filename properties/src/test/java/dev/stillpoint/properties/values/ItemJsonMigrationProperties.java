package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemJson;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * [S4] The jackson-core codec (item-json) against the hand-written one it replaces (domain): the same
 * canonical bytes for every generated item, and for any text, the same item or the same refusal
 * (message, position and excerpt alike).
 */
class ItemJsonMigrationProperties {

    @Property
    void s4_both_codecs_write_the_same_canonical_text(@ForAll("items") Item item) {
        String old = ItemJson.encode(item);
        assertThat(dev.stillpoint.itemjson.ItemJson.encode(item)).isEqualTo(old);
        assertThat(dev.stillpoint.itemjson.ItemJson.decode(old)).isEqualTo(ItemJson.decode(old));
    }

    @Property
    void s4_both_codecs_read_or_refuse_damaged_text_alike(@ForAll("items") Item item,
            @ForAll @IntRange(min = 0, max = 10_000) int at, @ForAll("damage") String damage, @ForAll int kind) {
        String text = ItemJson.encode(item);
        int cut = at % text.length();
        String damaged = switch (Math.floorMod(kind, 4)) {
            case 0 -> text.substring(0, cut);
            case 1 -> text.substring(0, cut) + damage + text.substring(cut);
            case 2 -> text.substring(0, cut) + damage + text.substring(Math.min(text.length(), cut + 1));
            default -> text + damage;
        };
        assertSameOutcome(damaged);
    }

    @Property
    void s4_both_codecs_read_or_refuse_arbitrary_text_alike(@ForAll("texts") String text) {
        assertSameOutcome(text);
    }

    private static void assertSameOutcome(String text) {
        Object old = outcome(() -> ItemJson.decode(text));
        Object now = outcome(() -> dev.stillpoint.itemjson.ItemJson.decode(text));
        assertThat(now).as(text).isEqualTo(old);
    }

    private static Object outcome(java.util.function.Supplier<Item> decode) {
        try {
            return decode.get();
        } catch (StorageException e) {
            return e.reason() + ": " + e.getMessage();
        }
    }

    @Provide
    Arbitrary<Item> items() {
        return Arbitraries.maps(ItemJsonProperties.strings(), ItemJsonProperties.values(3)).ofMaxSize(8).map(Item::of);
    }

    @Provide
    Arbitrary<String> damage() {
        return Arbitraries.of("\"", "\\", "{", "}", "[", "]", ":", ",", "x", "0", " ", "\u0000", "=", "t", "S", "\ud800",
                "\\u", "\\x", "\\u00", "true", "false", "null", "1", "{}", "[]", "\"S\":", ",\"N\":\"1\"", "\t", "\n");
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", ":", ",", "\"", "\"S\"", "\"N\"", "\"B\"", "\"L\"",
                        "\"M\"", "\"SS\"", "\"NS\"", "\"BS\"", "\"BOOL\"", "\"NULL\"", "\"a\"", "\"AAE=\"", "\"AB==\"", "true",
                        "false", "null", "1", "1.5", "-0", " ", "\\", "\\u", "\\u00", "\"\\", "\ud800", "\"\\u0053\"", "\u0001")
                .list().ofMaxSize(30).map(parts -> String.join("", parts));
        Arbitrary<String> shaped = Arbitraries.of(List.of(
                "{\"a\":{\"S\":\"x\"}}", "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "{\"a\":{\"M\":{\"k\":{\"BOOL\":true}}}}",
                "{\"a\":{\"SS\":[\"x\",\"y\"]}}", "{\"a\":{\"BS\":[\"AA==\"]}}", "{\"a\":{\"NULL\":true}}"))
                .flatMap(base -> Arbitraries.integers().between(0, base.length()).flatMap(at -> Arbitraries.of(
                        "{", "}", "[", "]", ":", ",", "\"", " ", "x", "\\", "1", "tru", "\"S\":\"1\",").map(ins ->
                        base.substring(0, at) + ins + base.substring(at))));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, tokens), net.jqwik.api.Tuple.of(3, shaped),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().all().ofMaxLength(30)));
    }
}

package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Numbers read from storage [S4, D3]: the codec keeps canonical text as is without asking DynamoNumber,
 * so for every stored number text, an N and an NS member must read back exactly as DynamoNumber's full
 * parse says: its canonical text when valid, the stored text unchanged when not, never a refusal.
 */
class StoredNumberProperties {

    /** What a stored number text must read back as: DynamoNumber's canonical text, or the text itself. */
    private static String expected(String stored) {
        return DynamoNumber.tryNormalise(stored).orElse(stored);
    }

    private static void checkReadBack(String stored) {
        Item item = ItemJson.decode("{\"n\":{\"N\":\"" + stored + "\"},\"ns\":{\"NS\":[\"" + stored + "\"]}}");
        assertThat(((AttributeValue.N) item.get("n")).text()).as("[S4, D3] N '%s' read back", stored).isEqualTo(expected(stored));
        assertThat(((AttributeValue.NS) item.get("ns")).values()).as("[S4, D3] NS member '%s' read back", stored)
                .isEqualTo(Set.of(expected(stored)));
    }

    /** Number-like texts: every part optional or doubled, leading and trailing zeros, over-long digit runs, junk. */
    @Provide
    Arbitrary<String> storedNumberTexts() {
        Arbitrary<String> sign = Arbitraries.of("", "", "-", "+", "--");
        Arbitrary<String> digits = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.strings().withCharRange('0', '9').ofMaxLength(6)),
                Tuple.of(1, Arbitraries.strings().withCharRange('0', '9').ofMinLength(36).ofMaxLength(42)),
                Tuple.of(1, Arbitraries.of("0", "00", "10", "100", "1", "9")));
        Arbitrary<String> point = Arbitraries.of("", ".", ".", "..");
        Arbitrary<String> exponent = Arbitraries.of("", "", "", "e5", "E-3", "e", "e+0", "x");
        Arbitrary<String> structured = Combinators.combine(sign, digits, point, digits, exponent)
                .as((s, i, p, f, e) -> s + i + p + f + e);
        Arbitrary<String> loose = Arbitraries.strings().withChars("0123456789.-+eE x").ofMaxLength(8);
        return Arbitraries.oneOf(structured, structured, loose);
    }

    @Property
    void s4_everyStoredNumberTextReadsBackAsDynamoNumbersFullParseSays(@ForAll("storedNumberTexts") String stored) {
        checkReadBack(stored);
    }

    @Example
    void s4_theShapesNextToCanonicalTextReadBackAsDynamoNumberSays() {
        List<String> texts = List.of("", "-", "+", ".", "0", "-0", "+0", "00", "-00", "005", "0e5", "0x", "0.", "0.0",
                "0.5", "-0.5", "0.50", "-0.0", ".5", "-.5", "5.", "1.", "-1.", "1.5", "1.50", "1.05", "1.5e3", "1.5x",
                "15", "150", "10", "1e5", "1E5", "+1", "1-", "1.-", "1.+", "1.e", "1..5", "9", "-9",
                "1".repeat(38), "1".repeat(39), "1" + "0".repeat(38), "1" + "0".repeat(125), "1" + "0".repeat(126),
                "0." + "1".repeat(37), "0." + "1".repeat(38), "0." + "1".repeat(39), "0." + "0".repeat(129) + "1",
                "0." + "0".repeat(130) + "1", "1." + "1".repeat(37), "1." + "1".repeat(38), "-" + "9".repeat(38) + ".5");
        texts.forEach(StoredNumberProperties::checkReadBack);
    }

    @Example
    void s4_everyPrefixOfAnItemWithEscapesIsRefusedAsAValidationError() {
        Item item = Item.of(Map.of("s", new AttributeValue.S("a\"b\\c\nd\u0001e/\u00e9"),
                "t\"ag", new AttributeValue.SS(Set.of("\\", "\"", "\u001f"))));
        String text = ItemJson.encode(item);
        assertThat(text).as("the encoding escapes").contains("\\\\", "\\\"", "\\n", "\\u0001");
        for (int cut = 0; cut < text.length(); cut++) {
            String prefix = text.substring(0, cut);
            try {
                ItemJson.decode(prefix);
                throw new AssertionError("[S4] the prefix '" + prefix + "' was read as an item");
            } catch (StorageException e) {
                assertThat(e.reason()).as("[S4] the prefix '%s'", prefix).isEqualTo(ErrorReason.VALIDATION);
            }
        }
        assertThat(ItemJson.decode(text)).isEqualTo(item);
    }
}

package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.math.BigDecimal;
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
 * Numbers read from storage [S4, D3]: the codec and DynamoNumber keep canonical text as is without parsing
 * it ({@link DynamoNumber#isCanonical}), so for every stored number text, an N and an NS member must read
 * back as an oracle written apart from both says: Java's {@link BigDecimal} with DynamoDB's bounds, its
 * canonical text when valid, the stored text unchanged when not, never a refusal. DynamoNumber's own
 * answer must agree with the oracle too.
 */
class StoredNumberProperties {

    /**
     * What a stored number text must read back as: DynamoDB's number (at most 38 significant digits, the
     * leading digit's magnitude from 10^-130 to 10^125, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number)
     * as a plain decimal without sign on zero or trailing zeros; the text itself when it is none. Java's
     * grammar is DynamoNumber's (sign, digits with an optional point, an optional e/E exponent), bar white
     * space, which neither takes.
     */
    private static String expected(String stored) {
        BigDecimal value;
        try {
            value = new BigDecimal(stored);
        } catch (NumberFormatException e) {
            return stored;
        }
        if (value.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        long leading = (long) stripped.precision() - stripped.scale() - 1;
        boolean valid = stripped.precision() <= DynamoNumber.MAX_SIGNIFICANT_DIGITS
                && leading >= DynamoNumber.MIN_LEADING_EXPONENT && leading <= DynamoNumber.MAX_LEADING_EXPONENT;
        return valid ? stripped.toPlainString() : stored;
    }

    private static void checkReadBack(String stored) {
        assertThat(DynamoNumber.tryNormalise(stored).orElse(stored)).as("[D3] DynamoNumber on '%s'", stored)
                .isEqualTo(expected(stored));
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

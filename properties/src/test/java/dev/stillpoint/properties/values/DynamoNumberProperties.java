package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** [D3] number normalisation: one canonical plain-decimal text per value, and the refusals. */
class DynamoNumberProperties {

    // [D3] the examples the catalogue gives.
    @Example
    void d3_catalogue_examples() {
        assertThat(DynamoNumber.normalise("1.5E2")).isEqualTo("150");
        assertThat(DynamoNumber.normalise("1.0")).isEqualTo("1");
        assertThat(DynamoNumber.normalise("-0")).isEqualTo("0");
        assertThat(DynamoNumber.normalise("0.00100")).isEqualTo("0.001");
        assertThat(DynamoNumber.normalise("+7")).isEqualTo("7");
        assertThat(DynamoNumber.normalise("-1.50e-1")).isEqualTo("-0.15");
        assertThat(DynamoNumber.normalise("9.9E125")).isEqualTo("99" + "0".repeat(124));
        assertThat(DynamoNumber.normalise("1E-130")).isEqualTo("0." + "0".repeat(129) + "1");
        assertThat(DynamoNumber.normalise("-0.000E-999")).isEqualTo("0");
        assertThat(DynamoNumber.normalise("0E999999999999999999999")).isEqualTo("0");
        assertThat(DynamoNumber.normalise("1" + "0".repeat(100))).isEqualTo("1" + "0".repeat(100));
    }

    // [D3] the range ends: leading digit magnitude 10^-130 .. 10^125 inclusive, 38 significant digits.
    @Example
    void d3_range_ends_accepted_and_one_step_beyond_refused() {
        for (String ok : List.of("9.9E125", "-9.9E125", "1E-130", "-1E-130", "0.1E-129", "10E124",
                "9.9999999999999999999999999999999999999E125", "1.0000000000000000000000000000000000001E-130",
                "12345678901234567890123456789012345678", "12345678901234567890123456789012345678000",
                "0.00012345678901234567890123456789012345678")) {
            assertThat(DynamoNumber.isValid(ok)).as(ok).isTrue();
            assertThat(new BigDecimal(DynamoNumber.normalise(ok))).isEqualByComparingTo(new BigDecimal(ok));
        }
        for (String bad : List.of("1E126", "-1E126", "10E125", "1E-131", "-1E-131", "0.1E-130", "0.99E-130",
                "123456789012345678901234567890123456789", "1.00000000000000000000000000000000000001")) {
            assertThat(DynamoNumber.isValid(bad)).as(bad).isFalse();
            Expect.validation(() -> DynamoNumber.normalise(bad), bad);
        }
    }

    // [D3] anything that is not a number is a validation error naming the input.
    @Example
    void d3_malformed_inputs_refused_naming_the_input() {
        List<String> malformed = List.of("", "abc", "1e", "1E+", "1e-", "--1", "+-1", "++1", "-", "+", ".", "e5", "1..2",
                "1.2.3", "NaN", "-NaN", "Infinity", "-Infinity", "inf", "0x10", "1_000", "1,5", " 1", "1 ", "\t1", "1\n",
                "1 000", "1e 5", "1E5.5", "1E5E5", "\u0661", "\uff11", "1d", "1f", "1L");
        for (String input : malformed) {
            assertThat(DynamoNumber.isValid(input)).as("[%s]", input).isFalse();
            Expect.validation(() -> DynamoNumber.normalise(input), "'" + Expect.shown(input) + "'");
            Expect.validation(() -> DynamoNumber.value(input), "'" + Expect.shown(input) + "'");
            Expect.validation(() -> AttributeValue.N.of(input), "'" + Expect.shown(input) + "'");
        }
        Expect.validation(() -> DynamoNumber.normalise(null), "null");
    }

    // [D3] a refusal says what is wrong with the value: the offending character and its position, or
    // what is missing, or which bound it breaks.
    @Example
    void d3_refusal_says_what_is_wrong_with_the_value() {
        Expect.validation(() -> DynamoNumber.normalise("12a4"), "'12a4'", "'a' at position 2");
        Expect.validation(() -> DynamoNumber.normalise("x1"), "'x1'", "'x' at position 0");
        Expect.validation(() -> DynamoNumber.normalise("-"), "'-'", "expected decimal digits");
        Expect.validation(() -> DynamoNumber.normalise("+."), "'+.'", "expected decimal digits");
        Expect.validation(() -> DynamoNumber.normalise("1.5e+"), "'1.5e+'", "expected exponent digits");
        Expect.validation(() -> DynamoNumber.normalise("1".repeat(39)), "more than 38 significant digits");
        Expect.validation(() -> DynamoNumber.normalise("1E126"), "'1E126'", "above 10^125");
        Expect.validation(() -> DynamoNumber.normalise("1E-131"), "'1E-131'", "below 10^-130");
    }

    // [D3] the refusal names the value: whole up to 200 characters, a longer one cut to its first 200
    // with its length, so a huge input cannot flood the message.
    @Example
    void d3_refusal_names_the_value_cut_to_200_characters() {
        String whole = "1".repeat(199) + "x";
        Expect.validation(() -> DynamoNumber.normalise(whole), "'" + whole + "'");
        assertThat(messageOf(whole)).doesNotContain("characters)");

        String longer = "1".repeat(200) + "x";
        Expect.validation(() -> DynamoNumber.normalise(longer), "'" + "1".repeat(200) + "...' (201 characters)");

        String huge = "9".repeat(5000) + "x";
        Expect.validation(() -> DynamoNumber.normalise(huge), "(5001 characters)", "'x' at position 5000");
        assertThat(messageOf(huge)).hasSizeLessThan(400);
    }

    private static String messageOf(String input) {
        try {
            DynamoNumber.normalise(input);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted " + input);
    }

    // [D3] normalising a canonical text gives it back.
    @Property
    void d3_normalise_is_idempotent(@ForAll("numberTexts") String text) {
        String once = DynamoNumber.normalise(text);
        assertThat(DynamoNumber.normalise(once)).isEqualTo(once);
    }

    // [D3] normalising keeps the numeric value.
    @Property
    void d3_normalise_preserves_the_value(@ForAll("numbers") BigDecimal value) {
        for (String text : variants(value)) {
            assertThat(new BigDecimal(DynamoNumber.normalise(text))).as(text).isEqualByComparingTo(value);
            assertThat(DynamoNumber.value(text)).as(text).isEqualByComparingTo(value);
        }
    }

    // [D3] every way of writing one value (exponent forms, leading and trailing zeros, sign) gives one text.
    @Property
    void d3_formatted_variants_normalise_to_one_text(@ForAll("numbers") BigDecimal value) {
        String expected = ValueArbitraries.canonical(value);
        for (String text : variants(value)) {
            assertThat(DynamoNumber.normalise(text)).as(text).isEqualTo(expected);
            assertThat(AttributeValue.N.of(text).text()).as(text).isEqualTo(expected);
        }
    }

    // [D3] the canonical text is plain decimal: no exponent, no sign on zero, no leading or trailing zeros.
    @Property
    void d3_canonical_text_is_plain_decimal(@ForAll("numberTexts") String text) {
        String canonical = DynamoNumber.normalise(text);
        assertThat(canonical).matches("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?").isNotEqualTo("-0");
    }

    // [D3] numbers whose leading digit lies beyond 10^125 or below 10^-130 are refused, naming the input.
    @Property
    void d3_out_of_range_magnitudes_refused(
            @ForAll("mantissas") String mantissa, @ForAll("outOfRangeMagnitudes") long magnitude) {
        String input = mantissa + "E" + magnitude;
        assertThat(DynamoNumber.isValid(input)).isFalse();
        Expect.validation(() -> DynamoNumber.normalise(input), Expect.shown(input));
    }

    @Provide
    Arbitrary<Long> outOfRangeMagnitudes() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(126, 10_000_000), Arbitraries.longs().between(-10_000_000, -131),
                Arbitraries.longs().between(126, Long.MAX_VALUE), Arbitraries.longs().between(Long.MIN_VALUE + 1, -131));
    }

    // A non-zero mantissa d.ddd with 1-38 digits, whose leading digit sits at 10^0.
    @Provide
    Arbitrary<String> mantissas() {
        return Arbitraries.integers().between(1, 38).flatMap(ValueArbitraries::digitsOfLength)
                .map(u -> {
                    String digits = u.toString();
                    return digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
                })
                .flatMap(m -> Arbitraries.of("", "-", "+").map(sign -> sign + m));
    }

    // [D3] exponents too long for any integer type are refused cleanly (no NumberFormatException, no hang).
    @Property
    void d3_huge_exponent_texts_refused_cleanly(@ForAll @IntRange(min = 19, max = 60) int exponentDigits,
                                               @ForAll boolean negativeExponent, @ForAll @LongRange(min = 1, max = 9) long lead) {
        String exponent = lead + "9".repeat(exponentDigits - 1);
        String input = "1.5E" + (negativeExponent ? "-" : "") + exponent;
        Expect.validation(() -> DynamoNumber.normalise(input), input);
        // Zero stays zero whatever its exponent.
        assertThat(DynamoNumber.normalise("0.0E" + (negativeExponent ? "-" : "+") + exponent)).isEqualTo("0");
    }

    // [D3] more than 38 significant digits are refused, naming the input; trailing zeros are not significant.
    @Property
    void d3_more_than_38_significant_digits_refused(
            @ForAll @IntRange(min = 39, max = 70) int digits, @ForAll @IntRange(min = -60, max = 60) int magnitude,
            @ForAll boolean negative) {
        BigInteger unscaled = BigInteger.TEN.pow(digits - 1).add(BigInteger.valueOf(digits)).multiply(BigInteger.TEN)
                .add(BigInteger.ONE);
        BigDecimal value = new BigDecimal(negative ? unscaled.negate() : unscaled, unscaled.toString().length() - 1 - magnitude);
        String input = value.toString();
        assertThat(value.stripTrailingZeros().precision()).isGreaterThan(38);
        Expect.validation(() -> DynamoNumber.normalise(input), input);
        String scientificLowerCase = value.toString().toLowerCase(Locale.ROOT);
        Expect.validation(() -> DynamoNumber.normalise(scientificLowerCase), scientificLowerCase);
        // The same 38 leading digits followed by zeros are fine.
        String within = unscaled.toString().substring(0, 38) + "0".repeat(digits - 38);
        assertThat(DynamoNumber.normalise(within)).isEqualTo(new BigDecimal(within).stripTrailingZeros().toPlainString());
    }

    // [D3] whitespace anywhere in a valid number makes it invalid.
    @Property
    void d3_whitespace_refused(@ForAll("numberTexts") String text, @ForAll @IntRange(max = 1000) int at,
                               @ForAll("whitespace") String space) {
        int position = at % (text.length() + 1);
        String input = text.substring(0, position) + space + text.substring(position);
        Expect.validation(() -> DynamoNumber.normalise(input), Expect.shown(input));
    }

    @Provide
    Arbitrary<String> whitespace() {
        return Arbitraries.of(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u000b", "\f");
    }

    // [D3] isValid, value and normalise agree.
    @Property
    void d3_is_valid_agrees_with_normalise(@ForAll("anyTexts") String text) {
        boolean valid = DynamoNumber.isValid(text);
        if (valid) {
            assertThat(DynamoNumber.value(text)).isEqualByComparingTo(new BigDecimal(DynamoNumber.normalise(text)));
            assertThat(DynamoNumber.tryNormalise(text)).contains(DynamoNumber.normalise(text));
        } else {
            Expect.validation(() -> DynamoNumber.normalise(text));
            assertThat(DynamoNumber.tryNormalise(text)).isEmpty();
        }
    }

    @Provide
    Arbitrary<String> anyTexts() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789+-.eE ").ofMaxLength(12),
                Arbitraries.strings().ofMaxLength(6),
                numberTexts());
    }

    @Provide
    Arbitrary<BigDecimal> numbers() {
        return ValueArbitraries.validNumbers();
    }

    @Provide
    Arbitrary<String> numberTexts() {
        return ValueArbitraries.validNumbers().flatMap(v -> Arbitraries.of(variants(v)));
    }

    /** Ways of writing {@code value}: BigDecimal's forms, e/E exponents, + sign, leading and trailing zeros. */
    static List<String> variants(BigDecimal value) {
        List<String> out = new ArrayList<>();
        String plain = value.toPlainString();
        out.add(value.toString());
        out.add(value.toString().toLowerCase(Locale.ROOT));
        out.add(plain);
        out.add(value.toEngineeringString());
        out.add(value.stripTrailingZeros().toString());
        out.add(value.unscaledValue() + "E" + (-value.scale()));
        out.add(value.unscaledValue() + "e" + (value.scale() <= 0 ? "+" : "") + (-value.scale()));
        BigDecimal shifted = value.movePointLeft(3);
        out.add(shifted.unscaledValue() + ".e" + (3 - shifted.scale()));
        out.add(plain + (plain.contains(".") ? "000" : ".000"));
        out.add(plain + (plain.contains(".") ? "" : ".") + "0e0");
        String sign = value.signum() < 0 ? "-" : "";
        String magnitude = value.abs().toPlainString();
        out.add(sign + "000" + magnitude);
        out.add((value.signum() < 0 ? "-" : "+") + magnitude);
        out.add(sign + "0" + magnitude + "E-0000");
        if (magnitude.startsWith("0.")) {
            out.add(sign + magnitude.substring(1)); // ".5" form
        }
        return out;
    }
}

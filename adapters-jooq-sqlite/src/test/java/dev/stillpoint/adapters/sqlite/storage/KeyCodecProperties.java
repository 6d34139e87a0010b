package dev.stillpoint.adapters.sqlite.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.DynamoNumber;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * The N encoding sorts like the numbers (D2) over DynamoDB's whole N domain (D3): up to 38
 * significant digits, leading digit from 1E-130 to 9.99E125, both signs and zero.
 */
class KeyCodecProperties {

    @Property(tries = 2000)
    void unsigned_byte_order_is_numeric_order(@ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
        assertSameOrder(a, b);
    }

    @Property(tries = 2000)
    void unsigned_byte_order_is_numeric_order_for_numbers_sharing_sign_exponent_and_a_digit_prefix(
            @ForAll("prefixSharingPairs") Tuple2<BigDecimal, BigDecimal> pair) {
        assertSameOrder(pair.get1(), pair.get2());
    }

    @Property(tries = 1000)
    void thirty_eight_digit_neighbours_a_last_digit_apart_keep_their_order(
            @ForAll("lastDigitNeighbours") Tuple2<BigDecimal, BigDecimal> pair) {
        assertThat(pair.get1()).isLessThan(pair.get2());
        assertThat(Arrays.compareUnsigned(KeyCodec.encodeNumber(pair.get1()), KeyCodec.encodeNumber(pair.get2())))
                .isNegative();
    }

    @Property(tries = 2000)
    void decoding_returns_the_number(@ForAll("numbers") BigDecimal x) {
        BigDecimal decoded = KeyCodecReader.decodeNumber(KeyCodec.encodeNumber(x));
        assertThat(decoded.compareTo(x)).isZero();
        assertThat(decoded).isEqualTo(x.stripTrailingZeros());
    }

    @Property(tries = 500)
    void trailing_zeros_do_not_change_the_encoding(@ForAll("numbers") BigDecimal x,
            @ForAll("zeros") int extraZeros) {
        BigDecimal padded = x.setScale(x.scale() + extraZeros);
        assertThat(KeyCodec.encodeNumber(padded)).isEqualTo(KeyCodec.encodeNumber(x));
    }

    // Keys already stored were encoded through BigDecimal's digits and scale: the text path must give the same
    // bytes for every number, or a stored row is no longer found by its key. The reference is that first
    // encoding, kept here as written; DynamoNumber's canonical text and the same text padded with zeros
    // both give its bytes.
    @Property(tries = 3000)
    void the_text_path_gives_the_bytes_of_the_first_encoding(@ForAll("numbers") BigDecimal x,
            @ForAll("zeros") int padding) {
        byte[] reference = byDigitsAndScale(x);
        String canonical = DynamoNumber.normalise(x.toString());
        String padded = "0".repeat(padding) + (canonical.startsWith("-") ? canonical.substring(1) : canonical)
                + (canonical.contains(".") ? "0".repeat(padding) : "");
        assertThat(KeyCodec.encodeNumber(canonical)).as(canonical).isEqualTo(reference);
        assertThat(KeyCodec.encodeNumber((canonical.startsWith("-") ? "-" : "") + padded)).as(padded).isEqualTo(reference);
        assertThat(KeyCodec.encodeNumber(x)).isEqualTo(reference);
    }

    /** The N encoding as first written (KeyCodec before the text path): digits and exponent from BigDecimal. */
    private static byte[] byDigitsAndScale(BigDecimal value) {
        BigDecimal normalised = value.stripTrailingZeros();
        int signum = normalised.signum();
        if (signum == 0) {
            return new byte[] {(byte) 0x80};
        }
        String digits = normalised.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - 1 - normalised.scale();
        int pairs = (digits.length() + 1) / 2;
        byte[] out = new byte[signum > 0 ? 2 + pairs : 3 + pairs];
        int mask = signum > 0 ? 0 : 0xFF;
        out[0] = (byte) (signum > 0 ? 0xC0 : 0x40);
        out[1] = (byte) (((int) exponent + 130) ^ mask);
        for (int i = 0; i < pairs; i++) {
            int high = digits.charAt(2 * i) - '0';
            int low = 2 * i + 1 < digits.length() ? digits.charAt(2 * i + 1) - '0' : 0;
            out[2 + i] = (byte) ((high * 10 + low + 1) ^ mask);
        }
        if (signum < 0) {
            out[out.length - 1] = (byte) 0xFF;
        }
        return out;
    }

    @Property(tries = 1000)
    void string_bytes_sort_by_code_point(@ForAll("unicode") String a, @ForAll("unicode") String b) {
        int byBytes = Integer.signum(Arrays.compareUnsigned(KeyCodec.encodeString(a), KeyCodec.encodeString(b)));
        int byCodePoints = Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
        assertThat(byBytes).isEqualTo(byCodePoints);
        assertThat(KeyCodecReader.decodeString(KeyCodec.encodeString(a))).isEqualTo(a);
    }

    private static void assertSameOrder(BigDecimal a, BigDecimal b) {
        int byBytes = Arrays.compareUnsigned(KeyCodec.encodeNumber(a), KeyCodec.encodeNumber(b));
        assertThat(Integer.signum(byBytes))
                .as("byte order of %s and %s", a.toPlainString(), b.toPlainString())
                .isEqualTo(Integer.signum(a.compareTo(b)));
    }

    /** A non-zero number from its sign, its digit string (no leading zero) and its leading digit's exponent. */
    static BigDecimal number(boolean negative, String digits, int exponent) {
        BigDecimal magnitude = new BigDecimal(new BigInteger(digits), digits.length() - 1 - exponent).stripTrailingZeros();
        return negative ? magnitude.negate() : magnitude;
    }

    static Arbitrary<String> digitStrings(int minLength, int maxLength) {
        return Combinators.combine(
                Arbitraries.chars().range('1', '9'),
                Arbitraries.strings().numeric().ofMinLength(minLength - 1).ofMaxLength(maxLength - 1))
                .as((first, rest) -> first + rest);
    }

    static Arbitrary<Integer> exponents() {
        return Arbitraries.integers().between(KeyCodec.MIN_EXPONENT, KeyCodec.MAX_EXPONENT)
                .edgeCases(e -> e.includeOnly(KeyCodec.MIN_EXPONENT, -1, 0, 1, KeyCodec.MAX_EXPONENT));
    }

    @Provide
    Arbitrary<BigDecimal> numbers() {
        Arbitrary<BigDecimal> nonZero = Combinators.combine(
                        Arbitraries.of(true, false), digitStrings(1, KeyCodec.MAX_DIGITS), exponents())
                .as(KeyCodecProperties::number);
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(BigDecimal.ZERO)), Tuple.of(30, nonZero));
    }

    /**
     * Two numbers with the same sign and exponent whose digit strings share a prefix: one may be a
     * prefix of the other, or they part after the prefix. Random pairs almost never get this close.
     */
    @Provide
    Arbitrary<Tuple2<BigDecimal, BigDecimal>> prefixSharingPairs() {
        return Combinators.combine(
                        Arbitraries.of(true, false), digitStrings(1, KeyCodec.MAX_DIGITS), exponents(),
                        Arbitraries.integers().between(1, KeyCodec.MAX_DIGITS),
                        Arbitraries.strings().numeric().ofMaxLength(KeyCodec.MAX_DIGITS - 1))
                .as((negative, digits, exponent, cut, tail) -> {
                    String prefix = digits.substring(0, Math.min(cut, digits.length()));
                    String other = prefix + tail.substring(0, Math.min(tail.length(), KeyCodec.MAX_DIGITS - prefix.length()));
                    return Tuple.of(number(negative, digits, exponent), number(negative, other, exponent));
                });
    }

    /** a < b, both with 38 significant digits where possible, b one unit in a's last (38th) digit further. */
    @Provide
    Arbitrary<Tuple2<BigDecimal, BigDecimal>> lastDigitNeighbours() {
        return Combinators.combine(
                        Arbitraries.of(true, false), digitStrings(KeyCodec.MAX_DIGITS, KeyCodec.MAX_DIGITS), exponents())
                .as((negative, digits, exponent) -> {
                    BigInteger unscaled = new BigInteger(digits);
                    int scale = KeyCodec.MAX_DIGITS - 1 - exponent;
                    BigDecimal a = new BigDecimal(unscaled, scale);
                    BigDecimal b = new BigDecimal(unscaled.add(BigInteger.ONE), scale);
                    return negative ? Tuple.of(b.negate(), a.negate()) : Tuple.of(a, b);
                })
                .filter(pair -> fits(pair.get1()) && fits(pair.get2()));
    }

    @Provide
    Arbitrary<Integer> zeros() {
        return Arbitraries.integers().between(1, 40);
    }

    @Provide
    Arbitrary<String> unicode() {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(0x20, 0x7F)),
                Tuple.of(2, Arbitraries.integers().between(0x80, 0xD7FF)),
                Tuple.of(2, Arbitraries.integers().between(0xE000, 0xFFFF)),
                Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)));
        return codePoint.list().ofMaxSize(8)
                .map(cps -> new String(cps.stream().mapToInt(Integer::intValue).toArray(), 0, cps.size()));
    }

    private static boolean fits(BigDecimal x) {
        BigDecimal n = x.stripTrailingZeros();
        int exponent = n.precision() - 1 - n.scale();
        return n.precision() <= KeyCodec.MAX_DIGITS
                && exponent >= KeyCodec.MIN_EXPONENT && exponent <= KeyCodec.MAX_EXPONENT;
    }
}

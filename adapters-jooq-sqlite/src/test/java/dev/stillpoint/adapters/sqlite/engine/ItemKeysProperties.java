package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.ScalarType;
import java.math.BigDecimal;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The stored key bytes order exactly as {@code KeyOrder.compare} [D2, Q3]: SQLite compares the
 * {@code pk}/{@code sk} blobs with memcmp, so the keyset pages come in key order only if this holds.
 */
class ItemKeysProperties {

    // D2: S as unsigned UTF-8 bytes, including surrogate pairs against U+FFFD.
    @Property
    void d2_storedStringKeysOrderAsKeyOrder(@ForAll("strings") String a, @ForAll("strings") String b) {
        check(ScalarType.S, new AttributeValue.S(a), new AttributeValue.S(b));
    }

    // D2: B as unsigned bytes.
    @Property
    void d2_storedBinaryKeysOrderAsKeyOrder(@ForAll("binaries") byte[] a, @ForAll("binaries") byte[] b) {
        check(ScalarType.B, new AttributeValue.B(a), new AttributeValue.B(b));
    }

    // D2, D3: N by numeric value across the whole range, normalised before encoding.
    @Property
    void d2_storedNumberKeysOrderAsKeyOrder(@ForAll("numbers") String a, @ForAll("numbers") String b) {
        check(ScalarType.N, AttributeValue.N.of(a), AttributeValue.N.of(b));
    }

    private static void check(ScalarType type, AttributeValue a, AttributeValue b) {
        int stored = Integer.signum(Arrays.compareUnsigned(ItemKeys.encode(a), ItemKeys.encode(b)));
        assertThat(stored).as("%s vs %s", a, b).isEqualTo(Integer.signum(KeyOrder.compareValues(type, a, b)));
    }

    @Provide
    Arbitrary<String> strings() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMinLength(1).ofMaxLength(6).withChars("aAbB\u00e9\uFFFD"),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(4).all().filter(s -> s.codePoints()
                        .allMatch(cp -> !Character.isSurrogate((char) cp) || cp > 0xFFFF)),
                Arbitraries.of("\uD83D\uDE00", "\uFFFD", "a", "B", "a\u0000"));
    }

    @Provide
    Arbitrary<byte[]> binaries() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<String> numbers() {
        Arbitrary<String> generated = Combinators.combine(
                        Arbitraries.bigIntegers().between(new java.math.BigInteger("-99999999999999999999999999999999999999"),
                                new java.math.BigInteger("99999999999999999999999999999999999999")),
                        Arbitraries.integers().between(-160, 80))
                .as((unscaled, scale) -> new BigDecimal(unscaled, scale))
                .filter(v -> v.signum() == 0 || (v.precision() - v.scale() - 1 <= 125 && v.precision() - v.scale() - 1 >= -130))
                .map(BigDecimal::toString);
        return Arbitraries.oneOf(generated, Arbitraries.of("1E-130", "9.9E125", "-9.9E125", "-1E-130", "0", "-0.5",
                "12345678901234567890123456789012345678", "12345678901234567890123456789012345679"));
    }
}

package dev.stillpoint.properties.values;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators for attribute values, numbers and keys, shared by the value properties. */
final class ValueArbitraries {
    /** Strings whose UTF-16 and UTF-8 orders differ, and close neighbours, so ties and near-ties are common. */
    static final List<String> TRICKY_CHARS = List.of(
            "a", "b", "\u00e9", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\ufffd", "\uffff",
            "\ud800\udc00", "\ud83d\ude00", "\udbff\udfff", "\u0000", "\u007f");

    private ValueArbitraries() {
    }

    /** The key shapes of K5: hash-only S, N, B; S hash with S, N, B range. */
    enum Shape {
        HASH_S(ScalarType.S, null), HASH_N(ScalarType.N, null), HASH_B(ScalarType.B, null),
        S_S(ScalarType.S, ScalarType.S), S_N(ScalarType.S, ScalarType.N), S_B(ScalarType.S, ScalarType.B);

        final ScalarType partition;
        final ScalarType sort;

        Shape(ScalarType partition, ScalarType sort) {
            this.partition = partition;
            this.sort = sort;
        }

        KeySchema schema() {
            return sort == null ? KeySchema.hashOnly("pk") : KeySchema.composite("pk", "sk");
        }

        List<AttributeDefinition> definitions() {
            return sort == null
                    ? List.of(new AttributeDefinition("pk", partition))
                    : List.of(new AttributeDefinition("pk", partition), new AttributeDefinition("sk", sort));
        }
    }

    /** Valid numbers of every size: 1-38 digits, leading digit magnitude -130..125, either sign. */
    static Arbitrary<BigDecimal> validNumbers() {
        Arbitrary<BigDecimal> general = Combinators.combine(
                        Arbitraries.integers().between(1, 38),
                        Arbitraries.integers().between(-130, 125),
                        Arbitraries.of(false, true))
                .flatAs((digits, magnitude, negative) -> digitsOfLength(digits)
                        .map(unscaled -> new BigDecimal(negative ? unscaled.negate() : unscaled, digits - 1 - magnitude)));
        Arbitrary<BigDecimal> small = Combinators.combine(
                        Arbitraries.integers().between(-300, 300), Arbitraries.integers().between(0, 2))
                .as((unscaled, scale) -> BigDecimal.valueOf(unscaled, scale));
        Arbitrary<BigDecimal> edges = Arbitraries.of(
                BigDecimal.ZERO, new BigDecimal("1E-130"), new BigDecimal("-1E-130"), new BigDecimal("9.9E125"),
                new BigDecimal("-9.9E125"), new BigDecimal("9.9999999999999999999999999999999999999E125"),
                new BigDecimal("-9.9999999999999999999999999999999999999E125"),
                new BigDecimal("12345678901234567890123456789012345678"),
                new BigDecimal("12345678901234567890123456789012345679"),
                new BigDecimal("-0.1"), new BigDecimal("-0.01"), new BigDecimal("0.5"), new BigDecimal("10"));
        return Arbitraries.frequencyOf(Tuple.of(5, general), Tuple.of(3, small), Tuple.of(2, edges));
    }

    /** A positive integer of exactly {@code digits} digits. */
    static Arbitrary<BigInteger> digitsOfLength(int digits) {
        BigInteger low = BigInteger.TEN.pow(digits - 1);
        return Arbitraries.bigIntegers().between(low, BigInteger.TEN.pow(digits).subtract(BigInteger.ONE));
    }

    /** The canonical text of a value, computed independently of the code under test. */
    static String canonical(BigDecimal value) {
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }

    /** Strings of whole code points, biased towards characters whose UTF-16 and UTF-8 orders differ. */
    static Arbitrary<String> keyStrings() {
        Arbitrary<String> tricky = Arbitraries.of(TRICKY_CHARS).list().ofMaxSize(4).map(parts -> String.join("", parts));
        Arbitrary<String> anyCodePoints = Arbitraries.integers().between(0, Character.MAX_CODE_POINT)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .list().ofMaxSize(8)
                .map(cps -> {
                    StringBuilder out = new StringBuilder();
                    cps.forEach(out::appendCodePoint);
                    return out.toString();
                });
        return Arbitraries.frequencyOf(Tuple.of(1, tricky), Tuple.of(1, anyCodePoints));
    }

    /** Byte arrays, biased towards the bytes around the sign boundary. */
    static Arbitrary<byte[]> keyBytes() {
        Arbitrary<byte[]> tricky = Arbitraries.of((byte) 0x00, (byte) 0x01, (byte) 0x7f, (byte) 0x80, (byte) 0xff)
                .array(byte[].class).ofMaxSize(4);
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(8);
        return Arbitraries.frequencyOf(Tuple.of(1, tricky), Tuple.of(1, any));
    }

    /** Texts a store may hold that are not valid numbers [S4]. */
    static Arbitrary<String> invalidNumberTexts() {
        return Arbitraries.of("", "abc", "1e", "NaN", "Infinity", "1E999", "--1", " 1", "0x10", "1E-999");
    }

    /** Key values of {@code type}; N values canonical, with a few raw invalid texts mixed in. */
    static Arbitrary<AttributeValue> keyValues(ScalarType type, boolean withInvalidNumbers) {
        return switch (type) {
            case S -> keyStrings().map(AttributeValue.S::new);
            case B -> keyBytes().map(AttributeValue.B::new);
            case N -> {
                Arbitrary<AttributeValue> valid = validNumbers().map(v -> new AttributeValue.N(canonical(v)));
                yield withInvalidNumbers
                        ? Arbitraries.frequencyOf(Tuple.of(9, valid), Tuple.of(1, invalidNumberTexts().map(AttributeValue.N::new)))
                        : valid;
            }
        };
    }

    /** Keys of {@code shape}. */
    static Arbitrary<Key> keys(Shape shape, boolean withInvalidNumbers) {
        Arbitrary<AttributeValue> partition = keyValues(shape.partition, withInvalidNumbers);
        if (shape.sort == null) {
            return partition.map(Key::of);
        }
        return Combinators.combine(partition, keyValues(shape.sort, withInvalidNumbers))
                .as((p, s) -> new Key(p, Optional.of(s)));
    }
}

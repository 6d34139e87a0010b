package dev.stillpoint.adapters.mongo.storage;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Values MongoDB can hold: well-formed strings, numbers of at most 34 significant digits, any bytes. */
public final class MongoArbitraries {

    private MongoArbitraries() {
    }

    /** Strings with the characters a netstring or a JSON writer could trip on, surrogate pairs, NUL. */
    public static Arbitrary<String> strings() {
        Arbitrary<String> awkward = Arbitraries.of("1:", ":", ",", "0", "12", "S", "N", "B", "3:Sab,", "\u0000", "\"",
                        "\\", "$", ".", "\u00e9", "\ud83d\ude00", "\uffff", "\u2028", " ")
                .list().ofMaxSize(6).map(parts -> String.join("", parts));
        return Arbitraries.frequencyOf(
                Tuple.of(3, awkward),
                Tuple.of(2, Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(10)),
                Tuple.of(1, Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(8)),
                Tuple.of(1, Arbitraries.just("")));
    }

    /** Canonical numbers of 1 to 34 significant digits across DynamoDB's exponent range. */
    public static Arbitrary<String> numbers() {
        Arbitrary<BigInteger> unscaled = Arbitraries.integers().between(1, 34).flatMap(digits ->
                Arbitraries.strings().withChars("0123456789").ofLength(digits)
                        .map(s -> new BigInteger("1" + s.substring(1)))
                        .filter(b -> b.toString().length() == digits));
        Arbitrary<Integer> exponents = Arbitraries.integers().between(-130, 125);   // of the leading digit
        Arbitrary<Boolean> negative = Arbitraries.of(true, false);
        Arbitrary<String> generated = Combinators.combine(unscaled, exponents, negative).as((u, e, neg) -> {
            BigDecimal v = new BigDecimal(neg ? u.negate() : u).scaleByPowerOfTen(e - (u.toString().length() - 1));
            return AttributeValue.N.of(v.toString()).text();
        });
        Arbitrary<String> edges = Arbitraries.of("0", "1", "-1", "1E-130", "9.999999999999999999999999999999999E+125")
                .map(t -> AttributeValue.N.of(t).text());
        return Arbitraries.frequencyOf(Tuple.of(9, generated), Tuple.of(1, edges));
    }

    public static Arbitrary<byte[]> bytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
    }

    /** A scalar key value: S, N or B. */
    public static Arbitrary<AttributeValue> keyValues() {
        return Arbitraries.oneOf(strings().filter(s -> !s.isEmpty()).map(AttributeValue.S::new),
                numbers().map(AttributeValue.N::new),
                bytes().filter(b -> b.length > 0).map(AttributeValue.B::new));
    }

    /** Values of every type; L and M down to {@code depth} more levels. */
    public static Arbitrary<AttributeValue> values(int depth) {
        Arbitrary<AttributeValue> scalars = Arbitraries.frequencyOf(
                Tuple.of(4, strings().map(AttributeValue.S::new)),
                Tuple.of(3, numbers().map(AttributeValue.N::new)),
                Tuple.of(2, bytes().map(AttributeValue.B::new)),
                Tuple.of(2, Arbitraries.of(AttributeValue.Bool.TRUE, AttributeValue.Bool.FALSE, AttributeValue.Null.INSTANCE)),
                Tuple.of(1, strings().set().ofMinSize(1).ofMaxSize(4).map(m -> new AttributeValue.SS(new LinkedHashSet<>(m)))),
                Tuple.of(1, numbers().set().ofMinSize(1).ofMaxSize(4).map(m -> new AttributeValue.NS(new LinkedHashSet<>(m)))),
                Tuple.of(1, bytes().list().ofMinSize(1).ofMaxSize(4).map(MongoArbitraries::binarySet)));
        if (depth == 0) {
            return scalars;
        }
        Arbitrary<AttributeValue> lists = Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4)
                .map(AttributeValue.L::new);
        Arbitrary<AttributeValue> maps = Arbitraries.maps(strings(), Arbitraries.lazy(() -> values(depth - 1)))
                .ofMaxSize(4).map(AttributeValue.M::new);
        return Arbitraries.frequencyOf(Tuple.of(6, scalars), Tuple.of(1, lists), Tuple.of(1, maps));
    }

    public static Arbitrary<Item> items() {
        return Arbitraries.maps(strings().filter(s -> !s.isEmpty()), values(3)).ofMinSize(1).ofMaxSize(8).map(Item::of);
    }

    private static AttributeValue.BS binarySet(List<byte[]> members) {
        Map<String, byte[]> distinct = new LinkedHashMap<>();
        for (byte[] member : members) {
            distinct.putIfAbsent(HexFormat.of().formatHex(member), member);
        }
        return new AttributeValue.BS(new ArrayList<>(distinct.values()));
    }
}

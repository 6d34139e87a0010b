package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.Utf8Text;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Utf8Text: a string is stored as UTF-8 unchanged exactly when it is well-formed UTF-16 (every
 * surrogate paired) (issue 7's surrogate bug). The oracle is the JDK's own code point walk: a string
 * is ill-formed where a code point falls in the surrogate range U+D800..U+DFFF; the refusal names the
 * first such unit, its index and the backend. Written for the 15 Utf8Text survivors of PIT on domain.
 */
class Utf8TextProperties {

    private static final String BACKEND = "TestBackend";

    /** The char index of the first unpaired surrogate, by the JDK's code point walk. */
    private static OptionalInt firstUnpaired(String text) {
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                return OptionalInt.of(i);
            }
            i += Character.charCount(cp);
        }
        return OptionalInt.empty();
    }

    /** Strings mixing ASCII, BMP text, surrogate pairs and lone surrogates, at every position. */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings().ascii().ofMaxLength(3),
                Arbitraries.strings().withCharRange('\u00A0', '\uD7FF').ofMaxLength(2),
                Arbitraries.of("\uD83D\uDE00", "\uD800\uDC00", "\uDBFF\uDFFF"),
                Arbitraries.chars().range('\uD800', '\uDBFF').map(String::valueOf),
                Arbitraries.chars().range('\uDC00', '\uDFFF').map(String::valueOf),
                Arbitraries.of("\uDE00\uD83D", "\uE000", "\uFFFF"));
        return piece.list().ofMaxSize(8).map(l -> String.join("", l));
    }

    // A well-formed string comes back as it is; an ill-formed one is refused, naming the first unpaired
    // surrogate (upper-case hex), its index, what held it and the backend.
    @Property(tries = 2000)
    void wellFormedExactlyWhenNoCodePointIsASurrogate(@ForAll("texts") String text) {
        OptionalInt bad = firstUnpaired(text);
        if (bad.isEmpty()) {
            assertThat(Utf8Text.requireWellFormed(text, "value", BACKEND))
                    .as("well-formed UTF-16 comes back unchanged").isSameAs(text);
        } else {
            char c = text.charAt(bad.getAsInt());
            assertThatThrownBy(() -> Utf8Text.requireWellFormed(text, "value 'v'", BACKEND))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                    .hasMessage("value 'v' holds an unpaired surrogate U+"
                            + Integer.toHexString(c).toUpperCase(Locale.ROOT) + " at character " + bad.getAsInt()
                            + "; " + BACKEND + " stores text as UTF-8, which cannot represent it");
        }
    }

    // The edges: a high surrogate last, a high before a non-low, a low first, a reversed pair, and a
    // pair at the very end (well-formed).
    @Example
    void edges() {
        assertThat(Utf8Text.requireWellFormed("", "v", BACKEND)).isEmpty();
        assertThat(Utf8Text.requireWellFormed("a\uD83D\uDE00", "v", BACKEND)).isEqualTo("a\uD83D\uDE00");
        for (String[] c : new String[][] {{"ab\uD83D", "D83D", "2"}, {"\uD83Dx", "D83D", "0"},
                {"\uDE00", "DE00", "0"}, {"x\uDE00\uD83D", "DE00", "1"}, {"\uD83D\uD83D\uDE00", "D83D", "0"}}) {
            assertThatThrownBy(() -> Utf8Text.requireWellFormed(c[0], "v", BACKEND))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("U+" + c[1] + " at character " + c[2] + ";");
        }
    }

    @Provide
    Arbitrary<Key> keys() {
        Arbitrary<AttributeValue> value = Arbitraries.oneOf(
                texts().filter(t -> !t.isEmpty()).map(AttributeValue::s),
                Arbitraries.integers().map(i -> AttributeValue.n(Integer.toString(i))),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(3).map(AttributeValue::b));
        return Combinators.combine(value, value.optional()).as(Key::new);
    }

    // A key is refused exactly when its partition or its sort value is an ill-formed S; N and B
    // values are never looked at; an accepted key comes back as it is.
    @Property(tries = 1000)
    void aKeyIsRefusedExactlyWhenOneOfItsStringsIsIllFormed(@ForAll("keys") Key key) {
        boolean bad = illFormed(key.partition()) || key.sort().map(Utf8TextProperties::illFormed).orElse(false);
        if (bad) {
            assertThatThrownBy(() -> Utf8Text.requireWellFormed(key, BACKEND))
                    .isInstanceOfSatisfying(StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION))
                    .hasMessageStartingWith("key holds an unpaired surrogate")
                    .hasMessageContaining(BACKEND);
        } else {
            assertThat(Utf8Text.requireWellFormed(key, BACKEND)).isSameAs(key);
        }
    }

    private static boolean illFormed(AttributeValue v) {
        return v instanceof AttributeValue.S s && firstUnpaired(s.value()).isPresent();
    }

    // Each half of a composite key is checked on its own.
    @Example
    void partitionAndSortAreEachChecked() {
        Key badSort = new Key(AttributeValue.s("fine"), Optional.of(AttributeValue.s("x\uD83D")));
        Key badPartition = new Key(AttributeValue.s("\uDE00"), Optional.of(AttributeValue.s("fine")));
        assertThatThrownBy(() -> Utf8Text.requireWellFormed(badSort, BACKEND)).hasMessageContaining("U+D83D at character 1");
        assertThatThrownBy(() -> Utf8Text.requireWellFormed(badPartition, BACKEND)).hasMessageContaining("U+DE00 at character 0");
    }

    // Bytes as a backend hands them over [E1]: firstMalformedByte finds where well-formed UTF-8 ends,
    // against an oracle written from the Unicode Standard's Table 3-7 (well-formed byte sequences),
    // independent of the JDK decoder the implementation asks.

    /** The offset where the longest well-formed prefix of {@code b} ends, or -1 when all of it is well-formed. */
    private static int wellFormedPrefixEnd(byte[] b) {
        int i = 0;
        while (i < b.length) {
            int lead = b[i] & 0xFF;
            int length;
            int secondLow = 0x80;
            int secondHigh = 0xBF;
            if (lead <= 0x7F) {
                length = 1;
            } else if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3;
                secondLow = lead == 0xE0 ? 0xA0 : 0x80;
                secondHigh = lead == 0xED ? 0x9F : 0xBF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4;
                secondLow = lead == 0xF0 ? 0x90 : 0x80;
                secondHigh = lead == 0xF4 ? 0x8F : 0xBF;
            } else {
                return i;
            }
            if (i + length > b.length) {
                return i;
            }
            for (int k = 1; k < length; k++) {
                int c = b[i + k] & 0xFF;
                int low = k == 1 ? secondLow : 0x80;
                int high = k == 1 ? secondHigh : 0xBF;
                if (c < low || c > high) {
                    return i;
                }
            }
            i += length;
        }
        return -1;
    }

    /** Runs of well-formed UTF-8 (any code point) with, now and then, a byte or a sequence that is not. */
    @Provide
    Arbitrary<byte[]> storedBytes() {
        Arbitrary<byte[]> wellFormed = Arbitraries.oneOf(
                        Arbitraries.integers().between(0, 0x7F),
                        Arbitraries.integers().between(0x80, 0xD7FF),
                        Arbitraries.integers().between(0xE000, 0x10FFFF))
                .map(cp -> new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Arbitrary<byte[]> edges = Arbitraries.of(new byte[] {(byte) 0x80}, new byte[] {(byte) 0xBF},
                new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0xC1, (byte) 0xBF},
                new byte[] {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xED, (byte) 0xBF, (byte) 0xBF}, new byte[] {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
                new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0xF5},
                new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xE2, (byte) 0x82}, new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98});
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(3);
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(12, wellFormed), net.jqwik.api.Tuple.of(1, edges), net.jqwik.api.Tuple.of(1, any))
                .list().ofMaxSize(12)
                .map(parts -> {
                    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                    parts.forEach(out::writeBytes);
                    return out.toByteArray();
                });
    }

    @Property(tries = 3000)
    void firstMalformedByteIsWhereTheWellFormedPrefixEnds(@ForAll("storedBytes") byte[] bytes) {
        byte[] before = bytes.clone();
        assertThat(Utf8Text.firstMalformedByte(bytes)).isEqualTo(wellFormedPrefixEnd(bytes));
        assertThat(bytes).as("the bytes are not changed").isEqualTo(before);
    }

    // One case of each kind the table rules out, where the oracle and the implementation must both say so,
    // and long well-formed text past the decoder's 1,024-character buffer.
    @Example
    void eachKindOfIllFormedSequenceIsFound() {
        assertThat(Utf8Text.firstMalformedByte(new byte[0])).isEqualTo(-1);
        assertThat(Utf8Text.firstMalformedByte("{\"a\":{\"S\":\"\u00e9\ud83d\ude00\"}}".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isEqualTo(-1);
        byte[] x = {'a', 'b'};
        for (byte[] bad : new byte[][] {{(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}}) {
            byte[] bytes = new byte[x.length + bad.length];
            System.arraycopy(x, 0, bytes, 0, x.length);
            System.arraycopy(bad, 0, bytes, x.length, bad.length);
            assertThat(Utf8Text.firstMalformedByte(bytes)).as(java.util.HexFormat.of().formatHex(bytes)).isEqualTo(2);
        }
        byte[] long1 = ("\u00e9".repeat(3000) + "\ud83d\ude00".repeat(700)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(Utf8Text.firstMalformedByte(long1)).isEqualTo(-1);
        long1[long1.length - 1] = 'x';
        assertThat(Utf8Text.firstMalformedByte(long1)).isEqualTo(long1.length - 4);
    }
}

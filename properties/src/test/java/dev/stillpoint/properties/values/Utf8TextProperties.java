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
}

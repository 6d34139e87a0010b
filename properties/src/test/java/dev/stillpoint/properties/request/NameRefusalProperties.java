package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.request.AccountIds;
import dev.stillpoint.domain.request.AttributeNames;
import dev.stillpoint.domain.request.WellFormedText;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Account ids and attribute names [R2, R4], every character and every length boundary against a
 * reference written from the rule, and each refusal naming the offending value as [R6] asks: quoted,
 * control characters and surrogates spelled {@code \\uXXXX}, cut after 64 characters with the full
 * length, the offending character spelled {@code 'c'} when printable ASCII and {@code U+XXXX} otherwise.
 */
class NameRefusalProperties {

    private static final String ACCOUNT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    private static final String ROLE = "the key of table 'orders'";

    /** The reference spelling of a value in a refusal. */
    private static String shownText(String text) {
        StringBuilder out = new StringBuilder("'");
        text.substring(0, Math.min(64, text.length())).chars().forEach(c -> out.append(
                c < 0x20 || (c >= 0xD800 && c <= 0xDFFF) ? String.format(Locale.ROOT, "\\u%04X", c) : String.valueOf((char) c)));
        out.append('\'');
        return text.length() > 64 ? out + "... (" + text.length() + " characters)" : out.toString();
    }

    /** The reference spelling of one offending character. */
    private static String shownChar(char c) {
        return c >= 0x20 && c <= 0x7e ? "'" + c + "'" : String.format(Locale.ROOT, "U+%04X", (int) c);
    }

    private static StorageException refusal(Runnable call) {
        StorageException e = Refusals.thrownBy(call);
        assertThat(e.reason()).as("a refusal is a validation error").isEqualTo(ErrorReason.VALIDATION);
        return e;
    }

    @Example
    void r2_aCharacterIsAcceptedInAnAccountIdExactlyWhenItIsOfTheDocumentedForm() {
        for (int code = Character.MIN_VALUE; code <= Character.MAX_VALUE; code++) {
            // Every character where a class or a spelling changes (ASCII, Latin, around the surrogates, the
            // top of the range), and a spread sample between, so the check stays fast under PIT.
            boolean near = code < 0x400 || (code >= 0xD7F0 && code < 0xE010) || code >= 0xFFF0 || code % 101 == 0;
            if (!near) {
                continue;
            }
            char c = (char) code;
            String id = "ab" + c + "9";
            if (ACCOUNT_CHARS.indexOf(c) >= 0) {
                assertThat(AccountIds.require(id)).as("[R2] account id %s accepted unchanged", shownText(id)).isEqualTo(id);
            } else {
                assertThat(refusal(() -> AccountIds.require(id)).getMessage())
                        .as("[R2, R6] the refusal of %s", shownChar(c))
                        .isEqualTo("account id " + shownText(id) + " may contain only A-Z, a-z, 0-9, '_' and '-', found "
                                + shownChar(c) + " at position 2");
            }
        }
    }

    @Example
    void r2_anAccountIdOfOneToSixtyFourCharactersIsAccepted_longerOnesAreRefusedNamingTheLength() {
        for (int length = 1; length <= 70; length++) {
            String id = "7".repeat(length);
            if (length <= AccountIds.MAX_LENGTH) {
                assertThat(AccountIds.require(id)).as("[R2] %s characters", length).isEqualTo(id);
            } else {
                assertThat(refusal(() -> AccountIds.require(id)).getMessage()).as("[R2, R6] %s characters", length)
                        .isEqualTo("account id " + shownText(id) + " is " + length + " characters long; at most 64 are accepted");
            }
            // A bad last character: the whole id is shown while it is at most 64 characters long, cut beyond.
            String bad = "7".repeat(length - 1) + ":";
            if (length <= AccountIds.MAX_LENGTH) {
                assertThat(refusal(() -> AccountIds.require(bad)).getMessage()).as("[R6] %s characters shown", length)
                        .startsWith("account id '" + bad + "' may contain only")
                        .endsWith("found ':' at position " + (length - 1));
            }
        }
        assertThat(refusal(() -> AccountIds.require(null)).getMessage()).endsWith("got null");
        assertThat(refusal(() -> AccountIds.require("")).getMessage()).endsWith("got an empty string");
    }

    @Provide
    Arbitrary<String> names() {
        // ASCII, two-, three- and four-byte characters, so byte and character counts differ.
        Arbitrary<String> unit = Arbitraries.of("a", "Z", " ", "\u0001", "\u00e9", "\u20ac", "\ud83d\ude00");
        return unit.list().ofMinSize(1).ofMaxSize(300).map(parts -> String.join("", parts));
    }

    @Property(tries = 200)
    void r2_aKeyAttributeNameIsAcceptedExactlyUpTo255BytesOfUtf8(@ForAll("names") String name) {
        checkByteBound(name, AttributeNames.MAX_KEY_NAME_BYTES, true);
    }

    @Example
    void r2_theByteBoundsHoldExactlyForEveryWidthOfCharacter() {
        for (String unit : List.of("a", "\u00e9", "\u20ac", "\ud83d\ude00")) {
            int width = unit.getBytes(StandardCharsets.UTF_8).length;
            for (int max : List.of(AttributeNames.MAX_KEY_NAME_BYTES, AttributeNames.MAX_NAME_BYTES)) {
                String atMost = unit.repeat(max / width);
                String padded = atMost + "a".repeat(max - atMost.getBytes(StandardCharsets.UTF_8).length);
                checkByteBound(padded, max, max == AttributeNames.MAX_KEY_NAME_BYTES);
                checkByteBound(padded + "a", max, max == AttributeNames.MAX_KEY_NAME_BYTES);
                checkByteBound(atMost, max, max == AttributeNames.MAX_KEY_NAME_BYTES);
            }
        }
    }

    private static void checkByteBound(String name, int max, boolean key) {
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        Runnable call = key ? () -> AttributeNames.requireKeyName(name, ROLE) : () -> AttributeNames.requireName(name, ROLE);
        if (bytes <= max) {
            String accepted = key ? AttributeNames.requireKeyName(name, ROLE) : AttributeNames.requireName(name, ROLE);
            assertThat(accepted).as("[R2] a name of %s bytes is accepted unchanged", bytes).isEqualTo(name);
        } else {
            assertThat(refusal(call).getMessage()).as("[R2, R6] a name of %s bytes", bytes)
                    .isEqualTo("attribute name " + shownText(name) + " of " + ROLE + " is " + bytes
                            + " bytes of UTF-8; at most " + max + " are allowed");
        }
    }

    @Example
    void r2_aMissingNameIsRefusedSayingSoForKeyAndOtherNames() {
        assertThat(refusal(() -> AttributeNames.requireKeyName(null, ROLE)).getMessage())
                .isEqualTo("attribute name of " + ROLE + " must be 1-255 bytes of UTF-8, got null");
        assertThat(refusal(() -> AttributeNames.requireKeyName("", ROLE)).getMessage())
                .isEqualTo("attribute name of " + ROLE + " must be 1-255 bytes of UTF-8, got an empty name");
        assertThat(refusal(() -> AttributeNames.requireName("", "map 'a'")).getMessage())
                .isEqualTo("attribute name of map 'a' must be 1-65535 bytes of UTF-8, got an empty name");
    }

    @Example
    void r4_aLoneSurrogateAnywhereInANameIsRefusedNamingItsUnitAndPosition() {
        for (char lone : new char[] {'\ud800', '\udbff', '\udc00', '\udfff'}) {
            for (int at = 0; at < 3; at++) {
                String name = "ab".substring(0, at) + lone + "cd".substring(at);
                String unit = Integer.toHexString(lone).toUpperCase(Locale.ROOT);
                String expected = "attribute name " + shownText(name) + " of " + ROLE + " holds an unpaired UTF-16 surrogate U+"
                        + unit + " at character " + at + "; strings must be well-formed Unicode";
                assertThat(refusal(() -> AttributeNames.requireKeyName(name, ROLE)).getMessage())
                        .as("[R4, R6] %s", expected).isEqualTo(expected);
                assertThat(refusal(() -> WellFormedText.require(name, "attribute 's'")).getMessage())
                        .startsWith("attribute 's' holds an unpaired UTF-16 surrogate U+" + unit + " at character " + at);
            }
        }
        String paired = "\ud83d\ude00x";
        assertThat(WellFormedText.require(paired, "attribute 's'")).as("[R4] a paired surrogate passes unchanged").isEqualTo(paired);
        assertThat(WellFormedText.require("\u0000", "attribute 's'")).as("[R4] NUL is an ordinary character").isEqualTo("\u0000");
    }
}

package dev.stillpoint.adapters.sqlite.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyCodecTest {

    /** In numeric order; the K5 shapes among them (text order and numeric order differ). */
    private static final List<String> ASCENDING = List.of(
            "-9.9E125",
            "-99999999999999999999999999999999999999",
            "-99999999999999999999999999999999999998",
            "-100",
            "-10",
            "-9",
            "-2",
            "-1.5",
            "-1.01",
            "-1.001",
            "-1",
            "-0.1000000000000000000000000000000000001",
            "-0.1",
            "-1E-129",
            "-1E-130",
            "0",
            "1E-130",
            "1.1E-130",
            "1E-129",
            "0.01",
            "0.1",
            "0.1000000000000000000000000000000000001",
            "1",
            "1.001",
            "1.01",
            "1.1",
            "2",
            "9",
            "10",
            "11",
            "100",
            "1234567890123456789012345678901234",
            "1234567890123456789012345678901235",
            "12345678901234567890123456789012345678",
            "12345678901234567890123456789012345679",
            "99999999999999999999999999999999999999",
            "1E38",
            "9.9E125",
            "9.9999999999999999999999999999999999999E125");

    @Test
    void examples_sort_by_bytes_as_they_sort_by_value() {
        List<BigDecimal> numbers = ASCENDING.stream().map(BigDecimal::new).toList();
        for (int i = 1; i < numbers.size(); i++) {
            assertThat(numbers.get(i - 1)).as("example list is ascending at %d", i).isLessThan(numbers.get(i));
        }
        List<BigDecimal> shuffledBack = new ArrayList<>(numbers);
        java.util.Collections.shuffle(shuffledBack, new java.util.Random(42));
        shuffledBack.sort(Comparator.comparing(KeyCodec::encodeNumber, Arrays::compareUnsigned));
        assertThat(shuffledBack).containsExactlyElementsOf(numbers);
    }

    @Test
    void examples_round_trip() {
        for (String text : ASCENDING) {
            BigDecimal x = new BigDecimal(text);
            assertThat(KeyCodecReader.decodeNumber(KeyCodec.encodeNumber(x))).isEqualByComparingTo(x);
        }
    }

    @Test
    void zero_has_one_encoding_whatever_its_scale_or_sign() {
        byte[] zero = {(byte) 0x80};
        assertThat(KeyCodec.encodeNumber(BigDecimal.ZERO)).isEqualTo(zero);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("0.000"))).isEqualTo(zero);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("-0"))).isEqualTo(zero);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("0E+10"))).isEqualTo(zero);
    }

    @Test
    void layout_is_as_documented() {
        // 150 = 1.5E2: sign, exponent 2 + 130, digit pair "15" + 1
        assertThat(KeyCodec.encodeNumber(new BigDecimal("150"))).containsExactly(0xC0, 132, 16);
        // 123 = 1.23E2: pairs "12" and "30" (odd digit paired with 0)
        assertThat(KeyCodec.encodeNumber(new BigDecimal("123"))).containsExactly(0xC0, 132, 13, 31);
        // -150: complement of the positive body, then 0xFF
        assertThat(KeyCodec.encodeNumber(new BigDecimal("-150"))).containsExactly(0x40, 255 - 132, 255 - 16, 0xFF);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("1E-130"))).containsExactly(0xC0, 0, 11);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("9.9E125"))).containsExactly(0xC0, 255, 100);
        assertThat(KeyCodec.encodeNumber(new BigDecimal("-99999999999999999999999999999999999999"))).hasSize(22);
    }

    @Test
    void numbers_outside_dynamodb_range_are_refused() {
        for (String text : List.of("1E126", "1E-131", "-1E126", "-1E-131", "123456789012345678901234567890123456789")) {
            assertThatThrownBy(() -> KeyCodec.encodeNumber(new BigDecimal(text)))
                    .as(text).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(new BigDecimal(text).toString());
        }
        // 39 digits written with trailing zeros are still 1 significant digit
        assertThat(KeyCodecReader.decodeNumber(KeyCodec.encodeNumber(new BigDecimal("100000000000000000000000000000000000000"))))
                .isEqualByComparingTo("1E38");
    }

    @Test
    void malformed_encodings_are_refused() {
        List<int[]> bad = List.of(
                new int[] {},
                new int[] {0x80, 1},
                new int[] {0x00, 130, 11},
                new int[] {0xC0, 130},
                new int[] {0xC0, 130, 0},
                new int[] {0xC0, 130, 101},
                new int[] {0xC0, 130, 1},
                new int[] {0xC0, 130, 11, 1},
                new int[] {0x40, 125, 244},
                new int[] {0xC0, 130, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11});
        for (int[] ints : bad) {
            byte[] bytes = new byte[ints.length];
            for (int i = 0; i < ints.length; i++) {
                bytes[i] = (byte) ints[i];
            }
            assertThatThrownBy(() -> KeyCodecReader.decodeNumber(bytes)).as(Arrays.toString(ints))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void strings_are_their_utf8_bytes_and_binaries_themselves() {
        assertThat(KeyCodec.encodeString("aé€😀")).isEqualTo("aé€😀".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // UTF-16 order puts U+FFFD after U+1F600's surrogates; UTF-8 (DynamoDB) order puts it before.
        assertThat(Arrays.compareUnsigned(KeyCodec.encodeString("\uFFFD"), KeyCodec.encodeString("😀"))).isNegative();
        assertThat("\uFFFD".compareTo("😀")).isPositive();
        // A lone surrogate has no UTF-8: refused, never written as the '?' String.getBytes puts in its place.
        for (String lone : List.of("\uD800", "a\uD800", "\uDC00b", "\uD800\uD800", "x\uDE00\uD83D")) {
            assertThatThrownBy(() -> KeyCodec.encodeString(lone)).as(lone).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> KeyCodecReader.decodeString(new byte[] {(byte) 0xC3})).isInstanceOf(IllegalArgumentException.class);

        byte[] raw = {0, (byte) 0xFF, 7};
        byte[] encoded = KeyCodec.encodeBinary(raw);
        assertThat(encoded).isEqualTo(raw).isNotSameAs(raw);
        assertThat(KeyCodecReader.decodeBinary(encoded)).isEqualTo(raw);
        assertThat(KeyCodec.absentSortKey()).isEmpty();
    }
}

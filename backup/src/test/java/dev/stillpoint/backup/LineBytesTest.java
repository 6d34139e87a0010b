package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The eight-at-a-time scan of a stored item's bytes answers as a byte-by-byte loop does, at every offset. */
class LineBytesTest {

    /** The plain loop the scan replaces: the reference. */
    private static int byByte(byte[] bytes) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b == '\n' || b == '\r') {
                return LineBytes.LINE_BREAK;
            }
            ascii &= b >= 0;
        }
        return ascii ? LineBytes.ASCII : LineBytes.NOT_ASCII;
    }

    @Property(tries = 5000)
    void theScanAnswersAsTheLoop(@ForAll("bytes") byte[] bytes) {
        assertThat(LineBytes.kind(bytes)).as(Arrays.toString(bytes)).isEqualTo(byByte(bytes));
    }

    @Example
    void eachKindAtEveryOffsetOfTheWordsAndTheTail() {
        for (int length = 0; length < 40; length++) {
            byte[] plain = new byte[length];
            Arrays.fill(plain, (byte) 'a');
            assertThat(LineBytes.kind(plain)).isEqualTo(LineBytes.ASCII);
            for (int at = 0; at < length; at++) {
                for (byte b : new byte[] {'\n', '\r', (byte) 0x80, (byte) 0xFF, (byte) 0x8A, (byte) 0x8D, 0x0B, 0x09}) {
                    byte[] one = plain.clone();
                    one[at] = b;
                    assertThat(LineBytes.kind(one)).as("0x%02X at %d of %d", b & 0xFF, at, length).isEqualTo(byByte(one));
                }
            }
        }
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        Arbitrary<Byte> mostlyText = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, Arbitraries.bytes().between((byte) 0x20, (byte) 0x7E)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of((byte) '\n', (byte) '\r', (byte) 0x0B, (byte) 0x0C, (byte) 0x8A,
                        (byte) 0x8D, (byte) 0x80, (byte) 0xFF, (byte) 0x00)));
        return mostlyText.array(byte[].class).ofMaxSize(70);
    }
}

package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * B and BS compare by content, so their hash codes do too: equal values (a BS's members in any order) hash
 * alike, and values of different content spread over hash codes, as the hash sets and maps the codec and
 * the request rules keep them in need (a constant hash would make each of those a list).
 */
class BinaryHashCodeTest {

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void equalBinariesHashAlikeAndDifferentOnesSpread() {
        assertThat(new AttributeValue.B(bytes(1, 2, 3)).hashCode()).isEqualTo(new AttributeValue.B(bytes(1, 2, 3)).hashCode());
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            hashes.add(new AttributeValue.B(bytes(i, i * 7)).hashCode());
        }
        assertThat(hashes).as("16 different binaries").hasSizeGreaterThan(8);
    }

    @Test
    void equalBinarySetsHashAlikeInAnyMemberOrderAndDifferentOnesSpread() {
        AttributeValue.BS ab = new AttributeValue.BS(List.of(bytes(1), bytes(2, 2)));
        AttributeValue.BS ba = new AttributeValue.BS(List.of(bytes(2, 2), bytes(1)));
        assertThat(ab).isEqualTo(ba);
        assertThat(ab.hashCode()).isEqualTo(ba.hashCode());
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            hashes.add(new AttributeValue.BS(List.of(bytes(i), bytes(i, 9))).hashCode());
        }
        assertThat(hashes).as("16 different binary sets").hasSizeGreaterThan(8);
    }
}

package dev.stillpoint.adapters.mongo.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The {@code _id} of an item and of an index entry: netstrings of the key's texts. Read back as the
 * key, never two keys to one id, and (index id then item id) never two entries to one id.
 */
class KeyIdsProperties {

    // Mutants run by hand: the length written in UTF-16 units instead of UTF-8 bytes -> "parse reads
    // the key back" fails (and the example's "3:S\u00e9,"); the type letter left out -> parse fails, and
    // m3_oneTextOfDifferentTypesHasDifferentIds fails on "S '1' and N 1".
    @Property
    void m3_anIdReadsBackAsItsKey(@ForAll("keys") Key key) {
        List<AttributeValue> expected = new ArrayList<>();
        expected.add(key.partition());
        key.sort().ifPresent(expected::add);
        assertThat(KeyIdReader.parse(KeyIds.of(key))).as("parse reads the key back").isEqualTo(expected);
    }

    @Property
    void m3_distinctKeysHaveDistinctIds(@ForAll("keys") Key a, @ForAll("keys") Key b) {
        if (!a.equals(b)) {
            assertThat(KeyIds.of(a)).as("distinct keys have distinct ids").isNotEqualTo(KeyIds.of(b));
        }
    }

    // An index entry's id is the index key's id followed by the item's: netstrings are prefix-free, so
    // two different (index key, item key) pairs never concatenate to the same id.
    @Property
    void m3_entryIdsNeverCollide(@ForAll("keys") Key indexA, @ForAll("keys") Key baseA,
                                 @ForAll("keys") Key indexB, @ForAll("keys") Key baseB) {
        if (!indexA.equals(indexB) || !baseA.equals(baseB)) {
            assertThat(KeyIds.of(indexA) + KeyIds.of(baseA)).isNotEqualTo(KeyIds.of(indexB) + KeyIds.of(baseB));
        }
    }

    @Example
    void m3_aSeparatorInsideAKeyCannotForgeABoundary() {
        // With a separator, ("a|b", "c") and ("a", "b|c") would collide; with netstrings they cannot.
        Key one = Key.of(new AttributeValue.S("a,1:Sb"), new AttributeValue.S("c"));
        Key two = Key.of(new AttributeValue.S("a"), new AttributeValue.S("b,1:Sc"));
        assertThat(KeyIds.of(one)).isNotEqualTo(KeyIds.of(two));
        assertThat(KeyIds.of(Key.of(new AttributeValue.S("\u00e9")))).isEqualTo("3:S\u00e9,");
        assertThat(KeyIds.of(Key.of(new AttributeValue.B(new byte[] {0, (byte) 0xff})))).isEqualTo("5:B00ff,");
        assertThat(KeyIds.of(Key.of(AttributeValue.N.of("1.50")))).isEqualTo("4:N1.5,");
    }

    @Example
    void m3_oneTextOfDifferentTypesHasDifferentIds() {
        assertThat(KeyIds.of(Key.of(new AttributeValue.S("1")))).as("S '1' and N 1")
                .isNotEqualTo(KeyIds.of(Key.of(AttributeValue.N.of("1"))));
        assertThat(KeyIds.of(Key.of(new AttributeValue.S("00ff")))).as("S '00ff' and B 00ff")
                .isNotEqualTo(KeyIds.of(Key.of(new AttributeValue.B(new byte[] {0, (byte) 0xff}))));
    }

    @Provide
    Arbitrary<Key> keys() {
        Arbitrary<AttributeValue> v = MongoArbitraries.keyValues();
        return Arbitraries.oneOf(v.map(Key::of), net.jqwik.api.Combinators.combine(v, v).as(Key::of));
    }
}

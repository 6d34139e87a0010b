package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * [S4] An item's and an M's attributes behave as the {@code LinkedHashMap} that putting the same
 * entries in order would make (first position, last value of a repeated name), and cannot change.
 */
class ItemAttributesProperties {

    // [S4] order, size, lookups, equality, hash and text as LinkedHashMap's, on both sides of the indexed size.
    @Property
    void s4_attributes_behave_as_a_linked_hash_map(@ForAll("entries") List<Map.Entry<String, AttributeValue>> entries) {
        LinkedHashMap<String, AttributeValue> expected = RepeatingSources.linkedMap(entries);
        Map<String, AttributeValue> source = RepeatingSources.map(entries, entries.size());
        assertSameMap(Item.of(source).attributes(), expected);
        assertSameMap(new AttributeValue.M(source).values(), expected);
        assertThat(new AttributeValue.M(source)).isEqualTo(new AttributeValue.M(expected));
    }

    // [S4] a source whose size() under-counts its entries (the copy grows) loses none of them.
    @Property
    void s4_a_source_that_undercounts_its_size_loses_no_attribute(
            @ForAll("entries") List<Map.Entry<String, AttributeValue>> entries, @ForAll @IntRange(max = 300) int reported) {
        LinkedHashMap<String, AttributeValue> expected = RepeatingSources.linkedMap(entries);
        assertSameMap(Item.of(RepeatingSources.map(entries, Math.min(reported, entries.size()))).attributes(), expected);
    }

    // [S4] every mutator refuses, also where it would change nothing, and through every view.
    @Property(tries = 200)
    void s4_attributes_cannot_change(@ForAll("entries") List<Map.Entry<String, AttributeValue>> entries) {
        LinkedHashMap<String, AttributeValue> expected = RepeatingSources.linkedMap(entries);
        Map<String, AttributeValue> attributes = Item.of(RepeatingSources.map(entries, entries.size())).attributes();
        AttributeValue v = AttributeValue.Null.INSTANCE;
        String present = expected.isEmpty() ? "absent#" : expected.keySet().iterator().next();
        List<ThrowingCallable> mutators = new ArrayList<>(List.of(
                () -> attributes.put("absent#", v), () -> attributes.put(present, v),
                () -> attributes.remove("absent#"), () -> attributes.remove(present),
                () -> attributes.remove(present, v), () -> attributes.putAll(Map.of()),
                () -> attributes.putAll(Map.of("absent#", v)), attributes::clear,
                () -> attributes.putIfAbsent(present, v), () -> attributes.putIfAbsent("absent#", v),
                () -> attributes.replace(present, v), () -> attributes.replace(present, v, v),
                () -> attributes.replaceAll((name, value) -> value),
                () -> attributes.computeIfAbsent(present, name -> v),
                () -> attributes.computeIfPresent("absent#", (name, value) -> value),
                () -> attributes.compute(present, (name, value) -> value),
                () -> attributes.merge(present, v, (a, b) -> a)));
        mutators.addAll(collectionMutators(attributes.entrySet(), Map.entry(present, v)));
        mutators.addAll(collectionMutators(attributes.keySet(), present));
        mutators.addAll(collectionMutators(attributes.values(), v));
        if (!expected.isEmpty()) {
            mutators.add(() -> attributes.entrySet().iterator().next().setValue(v));
        }
        for (ThrowingCallable mutator : mutators) {
            assertThatThrownBy(mutator).as("[S4] a mutator refuses").isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(attributes).as("[S4] unchanged").containsExactlyEntriesOf(expected);
    }

    // [S4] a 20,000-attribute item is compared and searched without going quadratic: 1,000 comparisons
    // take well under a second so; with a linear search each would take some 10^8 steps (minutes in all).
    @Example
    void s4_a_large_item_compares_with_an_equal_one() {
        Map<String, AttributeValue> source = new LinkedHashMap<>();
        for (int i = 0; i < 20_000; i++) {
            source.put("attribute" + i, new AttributeValue.S("v" + i));
        }
        Item item = Item.of(source);
        Item same = Item.of(new LinkedHashMap<>(source));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 1_000; round++) {
                assertThat(item.equals(same)).as("[S4] equal items").isTrue();
            }
        }, "[S4] 1,000 comparisons of 20,000-attribute items within a generous minute");
        assertThat(same).isEqualTo(item);
        assertThat(item.hashCode()).isEqualTo(same.hashCode()).isEqualTo(new Item(new HashMap<>(source)).hashCode());
        assertThat(item.attributes()).isEqualTo(source);
        assertThat(item).isNotEqualTo(item.with("attribute19999", new AttributeValue.S("other")));
        assertThat(item.get("attribute12345")).isEqualTo(new AttributeValue.S("v12345"));
    }

    static void assertSameMap(Map<String, AttributeValue> actual, LinkedHashMap<String, AttributeValue> expected) {
        assertThat(actual).as("[S4] size").hasSize(expected.size());
        assertThat(actual.isEmpty()).isEqualTo(expected.isEmpty());
        assertThat(new ArrayList<>(actual.entrySet())).as("[S4] entries in order").isEqualTo(new ArrayList<>(expected.entrySet()));
        assertThat(new ArrayList<>(actual.values())).as("[S4] values in order").isEqualTo(new ArrayList<>(expected.values()));
        SetMembersProperties.assertSameSet(actual.keySet(), new LinkedHashSet<>(expected.keySet()));
        for (Map.Entry<String, AttributeValue> e : expected.entrySet()) {
            assertThat(actual.get(e.getKey())).as("[S4] get(%s)", e.getKey()).isEqualTo(e.getValue());
            assertThat(actual.containsKey(e.getKey())).as("[S4] containsKey(%s)", e.getKey()).isTrue();
            assertThat(actual.containsValue(e.getValue())).isTrue();
        }
        for (String absent : RepeatingSources.absentFrom(expected.keySet())) {
            assertThat(actual.get(absent)).as("[S4] get(%s), absent", absent).isNull();
            assertThat(actual.containsKey(absent)).as("[S4] containsKey(%s), absent", absent).isFalse();
        }
        assertThat(actual.get(null)).isNull();
        assertThat(actual.containsKey(7)).isFalse();
        HashMap<String, AttributeValue> hashed = new HashMap<>(expected);
        assertThat(actual.equals(expected) && expected.equals(actual)).as("[S4] equal to the LinkedHashMap").isTrue();
        assertThat(actual.equals(hashed) && hashed.equals(actual)).as("[S4] equal to the HashMap").isTrue();
        assertThat(actual.entrySet()).isEqualTo(expected.entrySet());
        assertThat(actual.hashCode()).as("[S4] hashCode").isEqualTo(expected.hashCode());
        assertThat(actual.toString()).as("[S4] toString").isEqualTo(expected.toString());
        if (!expected.isEmpty()) {
            String last = new ArrayList<>(expected.keySet()).get(expected.size() - 1);
            hashed.put(last, new AttributeValue.S(hashed.get(last) + "#"));
            assertThat(actual.equals(hashed) || hashed.equals(actual)).as("[S4] a value differs").isFalse();
            hashed.remove(last);
            assertThat(actual.equals(hashed) || hashed.equals(actual)).as("[S4] an attribute missing").isFalse();
        }
        assertExhausts(actual.entrySet().iterator());
    }

    static void assertExhausts(Iterator<?> iterator) {
        while (iterator.hasNext()) {
            iterator.next();
        }
        assertThatThrownBy(iterator::next).as("[S4] past the end").isInstanceOf(NoSuchElementException.class);
    }

    @SuppressWarnings("unchecked")
    static <E> List<ThrowingCallable> collectionMutators(Collection<E> view, E element) {
        return List.of(() -> view.add(element), () -> view.remove(element), () -> view.remove("absent#"),
                () -> view.addAll(List.of(element)), () -> view.addAll(List.of()),
                () -> view.removeAll(List.of()), () -> view.removeAll(List.of(element)),
                () -> view.retainAll(new ArrayList<>(view)), () -> view.retainAll(List.of()),
                () -> view.removeIf(e -> false), () -> view.removeIf(e -> true), view::clear,
                () -> {
                    Iterator<E> it = view.iterator();
                    if (it.hasNext()) {
                        it.next();
                    }
                    it.remove();
                });
    }

    @Provide
    Arbitrary<List<Map.Entry<String, AttributeValue>>> entries() {
        Arbitrary<AttributeValue> value = Arbitraries.oneOf(
                Arbitraries.strings().withChars("xyz").ofMaxLength(2).map(AttributeValue.S::new),
                Arbitraries.of(AttributeValue.Bool.TRUE, AttributeValue.Null.INSTANCE));
        Arbitrary<Map.Entry<String, AttributeValue>> entry = Combinators.combine(names(), value).as(Map::entry);
        return Arbitraries.frequencyOf(
                Tuple.of(1, entry.list().ofMaxSize(24)),
                Tuple.of(1, entry.list().ofMinSize(25).ofMaxSize(300)));
    }

    /** Names that often repeat, some sharing a hash ("Aa", "BB"), among mostly fresh ones. */
    static Arbitrary<String> names() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of("", "a", "b", "Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB")),
                Tuple.of(3, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8)));
    }
}

package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * [S4] An SS's and an NS's members behave as the {@code LinkedHashSet} that adding the same members in
 * order would make (a repeated member kept once), and cannot change.
 */
class SetMembersProperties {

    // [S4] order, size, lookups, equality, hash and text as LinkedHashSet's, on both sides of the indexed size.
    @Property
    void s4_set_members_behave_as_a_linked_hash_set(@ForAll("members") List<String> members) {
        LinkedHashSet<String> expected = RepeatingSources.linkedSet(members);
        Set<String> source = RepeatingSources.set(members, members.size());
        assertSameSet(new AttributeValue.SS(source).values(), expected);
        assertSameSet(new AttributeValue.NS(source).values(), expected);
    }

    // [S4] a source whose size() under-counts its members (the copy grows) loses none of them.
    @Property
    void s4_a_source_that_undercounts_its_size_loses_no_member(
            @ForAll("members") List<String> members, @ForAll @IntRange(max = 300) int reported) {
        LinkedHashSet<String> expected = RepeatingSources.linkedSet(members);
        assertSameSet(new AttributeValue.SS(RepeatingSources.set(members, Math.min(reported, members.size()))).values(), expected);
    }

    // [S4] every mutator refuses, also where it would change nothing.
    @Property(tries = 200)
    void s4_set_members_cannot_change(@ForAll("members") List<String> members) {
        LinkedHashSet<String> expected = RepeatingSources.linkedSet(members);
        Set<String> values = new AttributeValue.SS(RepeatingSources.set(members, members.size())).values();
        String present = expected.isEmpty() ? "absent#" : expected.iterator().next();
        for (ThrowingCallable mutator : ItemAttributesProperties.collectionMutators(values, present)) {
            assertThatThrownBy(mutator).as("[S4] a mutator refuses").isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(values).as("[S4] unchanged").containsExactlyElementsOf(expected);
    }

    static void assertSameSet(Set<String> actual, LinkedHashSet<String> expected) {
        assertThat(actual.size()).as("[S4] size").isEqualTo(expected.size());
        assertThat(actual.isEmpty()).isEqualTo(expected.isEmpty());
        assertThat(new ArrayList<>(actual)).as("[S4] members in order").isEqualTo(new ArrayList<>(expected));
        for (String member : expected) {
            assertThat(actual.contains(member)).as("[S4] contains(%s)", member).isTrue();
        }
        for (String absent : RepeatingSources.absentFrom(expected)) {
            assertThat(actual.contains(absent)).as("[S4] contains(%s), absent", absent).isFalse();
        }
        assertThat(actual.contains(null)).isFalse();
        assertThat(actual.contains(7)).isFalse();
        HashSet<String> hashed = new HashSet<>(expected);
        assertThat(actual.equals(expected) && expected.equals(actual)).as("[S4] equal to the LinkedHashSet").isTrue();
        assertThat(actual.equals(hashed) && hashed.equals(actual)).as("[S4] equal to the HashSet").isTrue();
        assertThat(actual.hashCode()).as("[S4] hashCode").isEqualTo(expected.hashCode());
        assertThat(actual.toString()).as("[S4] toString").isEqualTo(expected.toString());
        hashed.add("absent#");
        assertThat(actual.equals(hashed) || hashed.equals(actual)).as("[S4] a member more").isFalse();
        if (!expected.isEmpty()) {
            hashed.remove("absent#");
            hashed.remove(expected.iterator().next());
            assertThat(actual.equals(hashed) || hashed.equals(actual)).as("[S4] a member missing").isFalse();
        }
        ItemAttributesProperties.assertExhausts(actual.iterator());
    }

    @Provide
    Arbitrary<List<String>> members() {
        Arbitrary<String> member = ItemAttributesProperties.names();
        return Arbitraries.frequencyOf(Tuple.of(1, member.list().ofMaxSize(24)), Tuple.of(1, member.list().ofMinSize(25).ofMaxSize(300)));
    }
}
